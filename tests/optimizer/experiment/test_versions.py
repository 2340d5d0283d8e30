"""`log`, `rollback --to`, `promote` and `diff`: an experiment's versions, on real repositories through the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, copy_of, git, made_once
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"},
    3: {"write": {"prompt.md": scores(a=0.5, b=0.5)}, "summary": "worse"},
    4: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise b"},
}


def ran(tmp_path, plan=PLAN, **config):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan, config=config or None)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    return repo


# the module's tests on ran()'s plain run share it: one worker makes it once, and each test copies it
pytestmark = pytest.mark.xdist_group("versions")


the_run = made_once(ran)


def snapshot(repo):
    """What a refused command must leave as it was: HEAD, the artifact, the history."""
    return git(repo, "rev-parse", "HEAD"), (repo / "prompt.md").read_text(), iterations(repo)


def test_log_lists_every_cycle_with_decision_score_commit_and_json(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    done = cli(repo, "log")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    commits = {r["cycle"]: r.get("commit") for r in iterations(repo)}
    assert [row[:4] for row in rows] == [
        ["1", "keep", "0.2500", commits[1][:10]],
        ["2", "keep", "0.7500", commits[2][:10]],
        ["3", "drop", "0.5000", "-"],
        ["4", "keep", "1.0000", commits[4][:10]],
    ]
    assert "raise a" in done.stdout and "worse (wins 0 <= losses 1" in done.stdout
    as_json = json.loads(cli(repo, "log", "--json").stdout)
    assert [(r["cycle"], r["decision"], r.get("commit")) for r in as_json] == [
        (r["cycle"], r["decision"], r.get("commit")) for r in iterations(repo)
    ]


def test_log_shows_each_cycles_objectives_and_a_gate_column_only_when_some_cycle_recorded_one(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    header = cli(repo, "log").stdout.splitlines()[0]
    assert "objectives" in header and "gate" not in header  # every eval run is measured; no gate was set
    path = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[2].update(objectives={"cost": 0.25, "latency_p95_ms": 1200}, gate="max_cost_increase")
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = cli(repo, "log").stdout.splitlines()
    assert out[0].split()[4:6] == ["objectives", "gate"]
    assert "cost=0.25 latency_p95_ms=1200" in out[3] and "max_cost_increase" in out[3]
    assert "correctness=" in out[1] and "max_cost_increase" not in out[1]


def test_log_of_an_unknown_experiment_is_one_line_exit_30(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    assert_one_line_error(cli(repo, "log", "nope"), 30, "'nope' has no history")


def test_rollback_makes_a_new_commit_with_the_keeps_artifact_and_a_later_run_resumes_from_it(tmp_path):
    plan = {**PLAN, 6: {"write": {"prompt.md": scores(a=1, b=0.75)}, "summary": "after rollback"}}
    repo = ran(tmp_path, plan, stop={"max_cycles": 4})
    before = git(repo, "rev-parse", "HEAD").strip()
    keep2 = iterations(repo)[1]["commit"]
    done = cli(repo, "rollback", "--to", "2")
    assert done.returncode == 0, done.stderr
    assert "rolled back to cycle 2" in done.stdout
    assert git(repo, "show", "HEAD:prompt.md") == git(repo, "show", f"{keep2}:prompt.md")
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0.5)
    assert git(repo, "rev-parse", "HEAD~1").strip() == before  # a new commit on top: nothing rewritten
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    line = iterations(repo)[-1]
    assert (line["cycle"], line["decision"], line["reason"], line["score"]) == (5, "keep", "rollback to cycle 2", 0.75)
    assert line["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert json.loads(cli(repo, "status", "exp", "--json").stdout)["state"]["best_cycle"] == 5

    again = cli(
        repo, "run", "--max-cycles", "1"
    )  # resumes from the rolled-back version, compared with cycle 2's results
    assert again.returncode == 0, again.stderr
    last = iterations(repo)[-1]
    assert (last["cycle"], last["decision"], last["mutation"]) == (6, "keep", "after rollback")
    assert last["wins"] == 1 and last["losses"] == 0


def test_rollback_to_the_version_already_there_changes_nothing(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    before = snapshot(repo)
    done = cli(repo, "rollback", "--to", "4")
    assert done.returncode == 0 and "nothing to do" in done.stdout
    assert snapshot(repo) == before


def test_a_rollback_killed_between_its_commit_and_its_line_is_completed_by_running_it_again(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")  # (its stop.max_cycles: 4 was the default already)
    keep2 = iterations(repo)[1]["commit"]
    git(repo, "restore", f"--source={keep2}", "--staged", "--worktree", "--", "prompt.md")  # what a killed
    git(repo, "commit", "-qm", "autoresearch rollback to cycle 2", "--", "prompt.md")  # rollback left
    head = git(repo, "rev-parse", "HEAD").strip()
    done = cli(repo, "rollback", "--to", "2")
    assert done.returncode == 0, done.stderr
    assert git(repo, "rev-parse", "HEAD").strip() == head  # no second commit
    line = iterations(repo)[-1]
    assert (line["cycle"], line["reason"], line["commit"]) == (5, "rollback to cycle 2", head)
    assert "nothing to do" in cli(repo, "rollback", "--to", "2").stdout


def test_rollback_refuses_a_drop_an_unknown_cycle_and_a_dirty_artifact_changing_nothing(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    before = snapshot(repo)
    assert_one_line_error(cli(repo, "rollback", "--to", "3"), 30, "cycle 3", "was a drop, not a KEEP", "cycles 1, 2, 4")
    assert_one_line_error(cli(repo, "rollback", "--to", "12"), 30, "cycle 12", "no such cycle")
    bad = cli(repo, "rollback", "--to", "x")  # a usage error: typer names the option
    assert bad.returncode == 30 and "'--to'" in bad.stderr and "Traceback" not in bad.stderr
    assert snapshot(repo) == before
    (repo / "prompt.md").write_text("edited by hand\n")
    assert_one_line_error(cli(repo, "rollback", "--to", "2"), 30, "uncommitted changes")
    assert (repo / "prompt.md").read_text() == "edited by hand\n"
    assert git(repo, "rev-parse", "HEAD") == before[0] and iterations(repo) == before[2]


def test_rollback_refuses_a_running_experiment(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"}, 3: {"hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan)
    daemon = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**__import__("os").environ, **GIT_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: (repo / ".autoresearch" / "mutating").exists())
        head = git(repo, "rev-parse", "HEAD")
        assert_one_line_error(cli(repo, "rollback", "--to", "1"), 30, "locked by pid")
        assert git(repo, "rev-parse", "HEAD") == head
    finally:
        (repo / ".autoresearch" / "go-on").touch()
        daemon.wait(timeout=60)
    assert [r["mutation"] for r in iterations(repo)][-1] != "rollback to cycle 1"


def worktree_run(tmp_path):
    repo = ran(tmp_path, worktree=True)
    assert git(repo, "show", "autoresearch/exp:prompt.md") == scores(a=1, b=1)
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0.5)
    return repo


def test_rollback_of_a_worktree_experiment_commits_on_its_branch_not_in_the_users_checkout(tmp_path):
    repo = worktree_run(tmp_path)
    mine = git(repo, "rev-parse", "HEAD")
    done = cli(repo, "rollback", "--to", "2")
    assert done.returncode == 0, done.stderr
    assert git(repo, "rev-parse", "HEAD") == mine and (repo / "prompt.md").read_text() == scores(a=0, b=0.5)
    assert git(repo, "show", "autoresearch/exp:prompt.md") == scores(a=1, b=0.5)
    assert git(repo, "log", "-1", "--format=%s", "autoresearch/exp").strip() == "autoresearch rollback to cycle 2"


def test_promote_fast_forwards_the_users_branch_to_the_experiment(tmp_path):
    repo = worktree_run(tmp_path)
    done = cli(repo, "promote")
    assert done.returncode == 0, done.stderr
    assert "fast-forward" in done.stdout
    assert git(repo, "rev-parse", "HEAD") == git(repo, "rev-parse", "autoresearch/exp")
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)
    assert "nothing to promote" in cli(repo, "promote").stdout


def test_promote_merges_when_the_user_has_committed_meanwhile(tmp_path):
    repo = worktree_run(tmp_path)
    (repo / "notes.txt").write_text("mine\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "my work")
    mine = git(repo, "rev-parse", "HEAD").strip()
    done = cli(repo, "promote")
    assert done.returncode == 0, done.stderr
    assert "merge commit" in done.stdout
    parents = git(repo, "rev-list", "--parents", "-n1", "HEAD").split()[1:]
    assert parents == [mine, git(repo, "rev-parse", "autoresearch/exp").strip()]
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1) and (repo / "notes.txt").exists()


def test_promote_refuses_a_dirty_tree_and_a_conflict_leaving_everything_as_it_was(tmp_path):
    repo = worktree_run(tmp_path)
    (repo / "notes.txt").write_text("x\n")
    git(repo, "add", "notes.txt")
    assert_one_line_error(cli(repo, "promote"), 30, "uncommitted changes")
    git(repo, "commit", "-q", "-m", "notes")
    (repo / "prompt.md").write_text("a 0.1\nb 0.1\n")
    git(repo, "commit", "-q", "-am", "my own prompt")
    head = git(repo, "rev-parse", "HEAD")
    assert_one_line_error(cli(repo, "promote"), 30, "conflicts in prompt.md", "nothing was changed")
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert (repo / "prompt.md").read_text() == "a 0.1\nb 0.1\n"


def test_promote_of_an_experiment_that_ran_in_the_checkout_is_exit_30(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    assert_one_line_error(cli(repo, "promote"), 30, "no branch autoresearch/exp")


def test_an_unknown_experiment_is_refused_without_writing_anything(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    for args in (["rollback", "ghost", "--to", "2"], ["promote", "ghost"], ["log", "ghost"], ["diff", "ghost", "exp"]):
        assert_one_line_error(cli(repo, *args), 30, "'ghost' has no history")
    assert not (repo / ".autoresearch" / "runs" / "ghost").exists()


def test_diff_of_two_cycles_shows_the_artifact_diff_and_the_per_test_comparison(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    done = cli(repo, "diff", "2", "4")
    assert done.returncode == 0, done.stderr
    assert "-b 0.5\n+b 1\n" in done.stdout
    assert "Comparing: exp:2 → exp:4" in done.stdout
    assert "b            0.50       1.00     +0.50  ✓ win" in done.stdout
    as_json = json.loads(cli(repo, "diff", "3", "4", "--json").stdout)
    assert as_json["diff"] == "artifact: exp:3 was a drop, never committed"
    assert as_json["comparison"]["summary"]["wins"] == 2


def test_diff_of_two_experiments_compares_their_best(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    other = {"2": {"write": {"prompt.md": scores(a=0.5, b=0.5)}, "summary": "half"}}
    (repo / "plan.json").write_text(json.dumps(other))
    (repo / "prompt.md").write_text(scores(a=0, b=0.5))  # the second experiment starts from the original
    git(repo, "commit", "-qam", "another plan")
    assert cli(repo, "run", "--experiment", "other", "--max-cycles", "2").returncode == 0
    done = cli(repo, "diff", "exp", "other")
    assert done.returncode == 0, done.stderr
    assert "-a 1\n-b 1\n+a 0.5\n+b 0.5\n" in done.stdout
    assert "Comparing: exp:4 → other:2" in done.stdout
    assert "Summary: 0 wins, 2 losses" in done.stdout


def test_diff_of_unknown_cycles_or_experiments_is_one_line_exit_30(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    assert_one_line_error(cli(repo, "diff", "2", "9"), 30, "cycle 9", "no such cycle")
    assert_one_line_error(cli(repo, "diff", "2", "ghost"), 30, "'ghost' has no history")
    assert_one_line_error(cli(repo, "diff", "2", "exp:0"), 30, "cycle 0")
    assert_one_line_error(cli(repo, "diff", "2", "../x"), 30)


def test_an_error_cycle_is_named_as_one_by_rollback_and_diff_which_has_no_results_to_compare(tmp_path):
    plan = {2: {"exit": 1}, 3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise both"}}
    repo = ran(tmp_path, plan)
    before = snapshot(repo)
    assert [r["decision"] for r in iterations(repo)] == ["keep", "error", "keep"]

    assert_one_line_error(cli(repo, "rollback", "--to", "2"), 30, "cycle 2", "was an error, not a KEEP", "cycles 1, 3")
    assert_one_line_error(cli(repo, "diff", "2", "3"), 30, "exp:2 was an error cycle (mutator-failed)", "no results")
    assert snapshot(repo) == before


HOLD = """\
import sys
from pathlib import Path
from autoresearch.optimizer.experiment.lockfile import Lock
lock = Lock(Path(sys.argv[1]))
lock.acquire("exp", task="rollback")
print("held", flush=True)
sys.stdin.read()
"""


def test_stop_never_signals_a_rollback_that_holds_the_lock(tmp_path, the_run):
    """`rollback` holds the experiment's lock while it commits; `stop --now` took its pid for a daemon's
    (and, through the API, the server's own) and sent it SIGTERM mid-commit."""
    repo = copy_of(the_run, tmp_path / "r")
    lock = repo / ".autoresearch/runs/exp/_autoresearch/lock"
    holding = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holding.stdout is not None and holding.stdout.readline() == "held\n"
        done = cli(repo, "stop", "--now")
        assert_one_line_error(done, 30, "`autoresearch rollback`", f"pid {holding.pid}", "not running")
        assert holding.poll() is None  # not signalled
        assert not (repo / ".autoresearch/runs/exp/_autoresearch/STOP").exists()
    finally:
        holding.communicate("")
    assert holding.returncode == 0


def test_report_lists_only_its_own_commits_after_another_experiment_was_promoted(tmp_path):
    repo = ran(tmp_path, {2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"}})  # `exp`, here
    (repo / "plan.json").write_text(json.dumps({"2": {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise b"}}))
    git(repo, "commit", "-q", "-am", "the next experiment's plan")
    assert cli(repo, "run", "--experiment", "other", "--worktree").returncode == 0
    assert cli(repo, "promote", "other").returncode == 0  # a fast-forward: its commit is on this branch now
    own = {r["commit"] for r in iterations(repo)[1:]}
    text = cli(repo, "report").stdout
    assert "raise a" in text and "raise b" not in text, text
    assert {c["sha"] for c in json.loads(cli(repo, "report", "--json").stdout)["commits"]} == own
    assert "raise b" in cli(repo, "report", "other").stdout
