"""`executor: ray` against a real two-node Ray cluster on 127.0.0.1 (tests/runs/executors/cluster.py).

The cluster and the CLI runs on it live in a private network and PID namespace made for these tests: only
loopback exists there (Ray would otherwise advertise and listen on the machine's other addresses), and
every Ray process started in it ends with it, so no other Ray on the machine is touched. One cluster
serves every test here (starting one costs tens of seconds); its scenarios start when collection ends and
run beside the rest of the suite (tests/runs/executors/conftest.py).
"""

from __future__ import annotations

import json

import pytest

from tests.runs.executors import scenarios
from tests.runs.executors.workspace_evals import PER_TEST_SCORES, SHARED_SCORES


@pytest.fixture(scope="module")
def cluster(request) -> dict:
    """What the scenarios printed: they started when collection ended (tests/runs/executors/scenarios.py)."""
    return scenarios.results(request.config)


def test_builtin_eval_gives_the_same_rows_on_ray_as_locally(cluster):
    assert cluster["local_exit"] == 0 and cluster["ray_exit"] == 0, cluster["ray_stderr"]
    assert cluster["ray"] == cluster["local"]
    # the key from .env reached the remote targets (every even test needs it to pass)
    assert [r["score"] for r in cluster["ray"]] == [1.0, 0.0] * 4


def evaluated_alike(cluster: dict, name: str) -> list[dict]:
    """The rows of the eval run `name` on ray, once they are checked to be the local run's."""
    local, remote = cluster[f"{name}_local"], cluster[f"{name}_ray"]
    assert local["exit"] == 0, local["stderr"]
    assert remote["exit"] == 0, remote["stderr"]
    assert remote["rows"] == local["rows"]
    return remote["rows"]


def test_command_eval_gives_the_same_rows_on_ray_as_locally(cluster):
    assert [r["score"] for r in evaluated_alike(cluster, "command")] == [1.0, 1.0, 1.0, 0.0]


def test_per_test_workspaces_are_set_up_in_each_task_with_the_local_rows(cluster):
    """Template, before_each, the agent's edits and the file changes graded, all on the worker."""
    assert [r["score"] for r in evaluated_alike(cluster, "per_test_workspaces")] == PER_TEST_SCORES


def test_a_shared_workspace_runs_as_one_task_with_the_local_rows(cluster):
    """before_all once, and the tests in turn in one workspace, each seeing the last one's edits."""
    assert [r["score"] for r in evaluated_alike(cluster, "shared_workspace")] == SHARED_SCORES


def test_a_node_lost_mid_eval_loses_no_test_and_counts_none_twice(cluster):
    lost = cluster["node_lost"]
    assert lost["exit"] == 0, lost["stderr"]
    assert lost["rows"] == cluster["local"]  # every test once, same scores
    assert lost["started"] > 8  # the attempt on the lost node ran again elsewhere
    assert lost["lost_said"] == 1  # by the daemon, which counted it: what it spent there is not known


def test_no_secret_in_rays_logs(cluster):
    assert cluster["log_files"] > 0
    assert cluster["secret_in_logs"] == []


def test_the_full_loop_runs_on_ray(cluster):
    loop = cluster["loop"]
    assert loop["exit"] == 0, loop["stderr"]
    assert loop["commits"] == 2  # the candidate scored better on the cluster and was committed


def test_a_repository_shadowing_our_packages_runs_only_ours_on_ray(cluster):
    """The daemon's Ray driver starts in the user's repository: `autoresearch/` there must not replace ours."""
    shadowed = cluster["shadowed"]
    assert shadowed["exit"] == 0, shadowed["stderr"]
    assert shadowed["imported"] == []
    assert shadowed["rows"] == cluster["command_ray"]["rows"] != []


def test_losing_the_cluster_stops_the_eval_as_an_error(cluster):
    lost = cluster["cluster_lost"]
    assert lost["exit"] == 40, lost["stderr"]
    assert "autoresearch: lost the Ray cluster at 'ray://127.0.0.1:10001'" in lost["stderr"]
    assert "Traceback" not in lost["stderr"]


def test_candidates_evaluate_on_ray_with_eval_workers_bounding_the_tasks_in_flight(cluster):
    found = cluster["candidates"]
    assert found["exit"] == 0, found["stderr"]
    assert found["commits"] == 2  # the candidate that answers t1 was kept
    assert found["candidates"][:2] == [0, 2]  # the baseline, then a cycle that judged two candidates
    assert found["attempts"] >= 3 * 8  # HEAD's eval and both candidates', every test
    assert found["here"] == 0  # every attempt ran in a shipped tree, none in the repository or its worktrees
    assert found["overlap"] == 1  # eval.workers: 1 across both candidates' runners, on a cluster of two slots


def test_losing_the_cluster_mid_run_is_exit_40_with_the_tree_restored_whatever_the_address(cluster):
    lost = cluster["run_lost"]
    assert lost["exit"] == 40, lost["stderr"]
    assert "autoresearch: lost the Ray cluster at '127.0.0.1:6390'" in lost["stderr"]
    assert "Traceback" not in lost["stderr"]
    assert lost["restored"] and lost["clean"]  # the candidate's edit undone, nothing else in the tree
    assert lost["resumed_exit"] == 0, lost["resumed_stderr"]  # on a new cluster, the experiment went on
    assert lost["commits"] == 2  # and kept the candidate this time


def test_a_daemon_killed_mid_eval_leaves_no_ray_driver_and_resumes(cluster):
    killed = cluster["daemon_killed"]
    assert killed["exit"] == -9  # and the fixture saw its Ray driver process end after it
    assert killed["resumed_exit"] == 0, killed["resumed_stderr"]
    assert killed["commits"] == 2


@pytest.mark.parametrize("name", ["eval_ctrl_c", "run_sigterm", "candidates_ctrl_c"])
def test_a_signal_mid_eval_exits_130_at_once_and_leaves_nothing_running(cluster, name):
    """Not after the remote tasks end (their targets hold until released, a minute later): the threads waiting for
    them return at once, the Ray driver process ends, and Ray ends the targets."""
    stopped = cluster["signals"][name]
    assert stopped["nodes"] == 2  # on one node, the second attempt held only once the first had timed out (2 min)
    assert stopped["exit"] == 130, stopped["stderr"]
    assert stopped["seconds"] < 15
    assert stopped["drivers"] == 0 and stopped["targets"] == 0, f"left running: {json.dumps(stopped['left_running'])}"
    assert "Traceback" not in stopped["stderr"]
    if name != "eval_ctrl_c":
        assert stopped["restored"] and stopped["clean"]
        assert stopped["resumed_exit"] == 0, stopped["resumed_stderr"]
        assert stopped["commits"] == 2


def test_a_ray_driver_process_killed_mid_eval_is_exit_40_with_the_tree_restored(cluster):
    killed = cluster["driver_killed"]
    assert killed["exit"] == 40, killed["stderr"]
    lines = [line for line in killed["stderr"].splitlines() if line.startswith("autoresearch:")]
    assert lines == ["autoresearch: lost the Ray cluster at '127.0.0.1:6390': its driver process ended (exit -9)"]
    assert "Traceback" not in killed["stderr"]
    assert killed["restored"] and killed["clean"]
    assert killed["resumed_exit"] == 0, killed["resumed_stderr"]


@pytest.mark.parametrize("command", ["eval", "run"])
def test_a_tree_over_max_snapshot_mb_is_exit_30_before_anything_is_written(cluster, command):
    refused = cluster["too_big"][command]
    assert refused["exit"] == 30, refused["stderr"]
    assert refused["stderr"].startswith("autoresearch: autoresearch.yaml: field 'executor.max_snapshot_mb'")
    assert refused["written"] == []


def test_the_workers_of_every_eval_so_far_left_at_most_the_last_ones_folders(cluster):
    """Every eval's workers unpacked a tree, and interrupted and lost tasks left their targets' temporary files: what
    the ended ones left is removed by the next worker on the node (before, about two trees an eval stayed)."""
    assert len(cluster["worker_leftovers"]) <= 6, cluster["worker_leftovers"]


def test_objects_freed_while_threads_send_cost_no_call(cluster):
    assert cluster["frees_while_sending"] == []


def test_a_cluster_that_never_answers_is_exit_30_and_ctrl_c_meanwhile_leaves_no_driver(cluster):
    silent = cluster["silent_cluster"]
    for form, refused in silent.items():
        if form == "ctrl_c":
            continue
        assert refused["exit"] == 30, refused["stderr"]
        assert "field 'executor.address': cannot reach the Ray cluster" in refused["stderr"]
        assert refused["drivers"] == 0  # Ray would have gone on trying for good
    stopped = silent["ctrl_c"]
    assert stopped["exit"] == 130 and stopped["seconds"] < 15, stopped["stderr"]
    assert stopped["drivers"] == 0


def test_candidates_are_mutated_on_the_cluster_in_a_sandbox_and_decided_here(cluster):
    """Each candidate's mutator ran on a worker, in a shipped tree inside the worker's sandbox, reading the run
    just decided from the worker's copy; its changelog and spend came back, and the better one was committed."""
    found = cluster["mutated_on_ray"]
    assert found["exit"] == 0, found["stderr"]
    assert found["commits"] == 2
    assert len(found["said"]) == 2
    for said in found["said"]:
        assert said.startswith("ran in /tmp/autoresearch-sandbox/work, reading "), said
        assert "/autoresearch-worker-" in said, said
    assert found["mutation_cost_usd"][1] == 0.5  # both candidates' reported spend, on the cycle's line


def test_a_lone_candidate_is_mutated_on_the_cluster_and_its_keep_committed_here(cluster):
    """K = 1 on ray: the mutator ran on a worker (in its sandbox, reading the worker's copy of the run just
    decided), its artifact came back into the checkout, and the KEEP was committed on the daemon."""
    lone = cluster["lone_on_ray"]
    assert lone["exit"] == 0, lone["stderr"]
    assert lone["decisions"] == ["keep", "keep"] and lone["commits"] == 2
    said = lone["said"][1]
    assert "/autoresearch-worker-" in said, said  # not the daemon's run directory: the worker's copy of it
    assert lone["mutation_cost_usd"][1] == 0.25
    assert lone["status"] == ""  # the checkout holds the commit and nothing else


def test_a_node_lost_mid_mutation_runs_that_mutation_again_and_says_so(cluster):
    lost = cluster["mutation_lost"]
    assert lost["exit"] == 0, lost["stderr"]
    assert lost["started"] == 3  # both mutations, then the lost one again on the node left
    assert lost["lost_said"] == 1  # the lost attempt, whose spend nothing brings back, is in the log
    assert len(lost["said"]) == 2 and lost["candidates"][1] and all(lost["candidates"][1])
    assert lost["mutation_cost_usd"][1] == 0.5  # each candidate's one finished attempt
    assert lost["commits"] == 2
    # and on the line: the cycle's count, and the candidate's whose attempt was lost
    assert lost["lost_attempts"] == [None, 1]
    assert sorted(lost["candidates_lost"][1], key=str) == [1, None]
    assert "lost with their Ray node: 1 mutation attempt(s) (cycle 2), what they spent is not known" in lost["report"]
    assert "(1 mutation attempt(s) lost with their Ray node, spend not known)" in lost["status"]


def test_ctrl_c_mid_mutation_on_the_cluster_exits_130_at_once_and_leaves_nothing_running(cluster):
    stopped = cluster["mutation_interrupted"]
    assert stopped["exit"] == 130, stopped["stderr"]
    assert stopped["seconds"] < 15
    assert stopped["drivers"] == 0 and stopped["mutators"] == 0
    assert "Traceback" not in stopped["stderr"]
    assert stopped["restored"] and stopped["clean"]
    assert stopped["resumed_exit"] == 0, stopped["resumed_stderr"]
    assert stopped["commits"] == 2
