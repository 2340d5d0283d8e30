"""The cycle in-process: one candidate from mutation to its line, the loop's stops, the candidate's restore.

Fast (no subprocess per cycle but git's), beside the end-to-end tests, so that a
failure points at a step rather than at a whole run.
"""

from __future__ import annotations

import pytest

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer.cycle import engine, loop, tree
from autoresearch.optimizer.cycle.conclude import COMMIT_PREFIX
from autoresearch.optimizer.cycle.head import original
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.cycle.stops import ErrorsStop, OutOfScopeStop, RunStopped
from autoresearch.optimizer.gitrepo.workspace import artifact_modified
from autoresearch.plumbing.errors import (
    INTEGRITY,
    KEEPS_FAILING,
    SAFETY_GATE,
    AutoresearchError,
    KeepsFailing,
    SafetyStop,
    exit_code_for,
)
from tests.helpers.repos import git
from tests.optimizer.unit import experiment, lines, scores, write


def started(session):
    """The experiment after its original (cycle 1)."""
    record(session, original(session))
    return session


def test_a_better_candidate_is_committed_and_becomes_the_baseline(tmp_path):
    session = started(experiment(tmp_path, scores(a=0, b=0), {2: write(scores(a=1, b=1), "fix both")}))
    engine.cycle(session, 2)
    head = git(session.ws.root, "log", "-1", "--format=%H %s").split(" ", 1)
    assert head[1].strip() == f"{COMMIT_PREFIX}2: fix both"
    line = lines(session)[-1]
    assert (line["decision"], line["commit"], line["wins"], line["losses"]) == ("keep", head[0], 2, 0)
    assert session.head[1] == head[0] and session.state.commits == [head[0]]
    assert [r["score"] for r in session.baseline_rows] == [1.0, 1.0]
    assert session.state.phase == "idle" and not artifact_modified(session.ws)


def test_a_worse_candidate_is_dropped_its_diff_saved_and_the_artifact_back_at_head(tmp_path):
    session = started(experiment(tmp_path, scores(a=1), {2: write(scores(a=0), "break a")}))
    engine.cycle(session, 2)
    line = lines(session)[-1]
    assert (line["decision"], line["mutation"], line["losses"]) == ("drop", "break a", 1)
    assert "-a=1" in (session.paths.run_dir(line["run_dir"]) / "candidate.patch").read_text()
    assert (session.ws.artifact_path.read_text(), session.state.commits) == (scores(a=1), [])


def test_a_failed_eval_is_an_error_cycle_and_the_candidate_is_restored(tmp_path):
    session = started(experiment(tmp_path, scores(a=1), {2: write("fail\n")}))
    engine.cycle(session, 2)
    line = lines(session)[-1]
    assert (line["decision"], line["error_reason"], line["score"]) == ("error", "eval-failed", 0.0)
    assert session.ws.artifact_path.read_text() == scores(a=1)


def test_a_mutation_outside_the_artifact_is_undone_and_makes_the_cycle_out_of_scope(tmp_path):
    step = write(scores(a=1), also={"notes.txt": "overwritten\n"})
    session = started(experiment(tmp_path, scores(a=0), {2: step}))
    engine.cycle(session, 2)
    line = lines(session)[-1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    assert (session.ws.root / "notes.txt").read_text() == "mine\n"
    assert session.ws.artifact_path.read_text() == scores(a=0)


def test_a_failed_mutation_keeps_what_it_spent_on_its_line(tmp_path):
    def step(request):
        raise MutationFailed("the model said nothing useful", "bad-reply", MutationResult("", 0.25, 100, 7))

    session = started(experiment(tmp_path, scores(a=0), {2: step}))
    engine.cycle(session, 2)
    line = lines(session)[-1]
    assert (line["error_reason"], line["mutation_cost_usd"], line["tokens_in"]) == ("bad-reply", 0.25, 100)
    assert session.history.spent_usd == 0.25


def test_mutation_attempts_lost_with_their_ray_node_are_counted_on_the_line_apart_from_the_spend(tmp_path):
    """What a remote mutator reports (autoresearch.optimizer.cycle.on_cluster): attempts lost before the one that
    ended, or before it gave up; their spend is not known, so the cost is that of what came back."""

    def kept(request):
        request.artifact.write_text(scores(a=1))
        return MutationResult("fix a", 0.25, lost_attempts=1)

    def lost(request):
        raise MutationFailed("its Ray node was lost 3 times", "node-lost", MutationResult("", lost_attempts=3))

    session = started(experiment(tmp_path, scores(a=0), {2: kept, 3: lost}))
    engine.cycle(session, 2)
    engine.cycle(session, 3)
    two, three = lines(session)[1:]
    assert (two["decision"], two["mutation_cost_usd"], two["mutation_lost_attempts"]) == ("keep", 0.25, 1)
    assert (three["error_reason"], three["mutation_cost_usd"], three["mutation_lost_attempts"]) == ("node-lost", 0, 3)
    assert "mutation_lost_attempts" not in lines(session)[0]


def test_eval_task_attempts_lost_with_their_ray_node_are_counted_on_the_line(tmp_path):
    """What an evaluator on ray notes (autoresearch.runs.executors.LostAttempts): each attempt run again, its spend
    not known; the line counts them apart from the cost."""
    session = started(experiment(tmp_path, scores(a=0), {2: write(scores(a=1) + "lost:2\n"), 3: write(scores(a=0.5))}))
    engine.cycle(session, 2)
    engine.cycle(session, 3)
    one, two, three = lines(session)
    assert (two["decision"], two["eval_lost_attempts"]) == ("keep", 2)
    assert "eval_lost_attempts" not in one and "eval_lost_attempts" not in three


def test_eval_task_attempts_lost_before_the_eval_failed_are_counted_on_its_error_line(tmp_path):
    """An eval whose tasks were lost with their node more often than the retries allow fails (every test an
    execution_error, or a one-task eval's `EvalFailed`): the attempts lost on the way are still on its line."""
    session = started(experiment(tmp_path, scores(a=0), {2: write(scores(a=1) + "lost:4\nfail\n")}))
    engine.cycle(session, 2)
    two = lines(session)[1]
    assert (two["decision"], two["eval_lost_attempts"]) == ("error", 4)


def test_a_commit_the_user_made_meanwhile_stops_the_run_with_the_candidate_saved(tmp_path):
    def step(request):
        checkout = tmp_path / "repo"  # the user's, not the sandbox's throwaway checkout the mutator works in
        (checkout / "notes.txt").write_text("the user's\n")
        git(checkout, "commit", "-qam", "the user's work")  # as if the user committed during the cycle
        request.artifact.write_text(scores(a=1))
        return MutationResult("edit")

    session = started(experiment(tmp_path, scores(a=0), {2: step}))
    with pytest.raises(Exception) as raised:
        engine.cycle(session, 2)
    assert exit_code_for(raised.value) == INTEGRITY
    assert not artifact_modified(session.ws) and len(lines(session)) == 1


def test_the_candidate_is_put_back_whatever_ends_the_cycle_unless_it_was_committed(tmp_path):
    session = started(experiment(tmp_path, scores(a=0), {}))
    run_dir = session.paths.new_run_dir(2)
    with pytest.raises(RuntimeError), tree.in_tree(session.ws, run_dir):
        session.ws.artifact_path.write_text(scores(a=1))
        raise RuntimeError("a bug in the middle of a cycle")
    assert session.ws.artifact_path.read_text() == scores(a=0)
    with tree.in_tree(session.ws, run_dir) as cand:
        session.ws.artifact_path.write_text(scores(a=1))
        sha = cand.commit("kept")
    assert session.ws.artifact_path.read_text() == scores(a=1) and session.ws.head() == sha


def test_the_loop_stops_at_max_cycles_with_the_state_finished(tmp_path):
    steps = {2: write(scores(a=1)), 3: write(scores(a=2))}
    session = experiment(tmp_path, scores(a=0), steps, "stop: {max_cycles: 3, max_convergence: 0}\n")
    outcome = loop.run(session)
    assert (outcome.stop_reason, outcome.cycles, outcome.succeeded) == ("max_cycles", 3, True)
    assert (session.state.status, session.state.stop_reason, session.state.phase) == ("finished", "max_cycles", "done")
    assert [r["decision"] for r in lines(session)] == ["keep", "keep", "keep"]


def test_three_failed_cycles_in_a_row_stop_the_run_with_exit_40_naming_the_limit(tmp_path):
    session = experiment(tmp_path, scores(a=0), {}, "stop: {max_cycles: 0, max_convergence: 0}\n")
    with pytest.raises(ErrorsStop) as raised:
        loop.run(session)
    assert exit_code_for(raised.value) == KEEPS_FAILING
    assert str(raised.value).startswith(
        "stopped: 3 cycles in a row failed; last error: the mutator left the artifact unchanged"
    )
    assert (session.state.status, session.state.stop_reason) == ("finished", "errors")


def test_three_out_of_scope_cycles_stop_the_run_with_exit_20(tmp_path):
    outside = {n: write(scores(a=n), also={"notes.txt": f"{n}\n"}) for n in range(2, 6)}
    session = experiment(tmp_path, scores(a=0), outside, "stop: {max_cycles: 0, max_convergence: 0}\n")
    with pytest.raises(OutOfScopeStop) as raised:
        loop.run(session)
    assert exit_code_for(raised.value) == SAFETY_GATE
    assert "3 times" in str(raised.value) and (session.ws.root / "notes.txt").read_text() == "mine\n"


def test_a_stop_file_ends_the_run_before_the_next_cycle(tmp_path):
    session = experiment(tmp_path, scores(a=0), {2: write(scores(a=1))}, "stop: {max_cycles: 0}\n")
    session.paths.stop_file.write_text("")
    outcome = loop.run(session)
    assert (outcome.stop_reason, outcome.cycles) == ("stop-requested", 1)
    assert not session.paths.stop_file.exists() and session.state.status == "finished"


def test_a_stop_reason_is_a_run_stopped_that_carries_its_name(tmp_path):
    stop = RunStopped("budget")
    assert (stop.reason, str(stop), exit_code_for(stop)) == ("budget", "budget", None)


def test_a_decision_written_down_draws_no_chart_the_loop_draws_it_after_the_critical_block(tmp_path):
    session = experiment(tmp_path, scores(a=0), {2: write(scores(a=1))}, "stop: {max_cycles: 2, max_convergence: 0}\n")
    record(session, original(session))  # inside a cycle's critical block: the line and the state only
    assert lines(session)[0]["decision"] == "keep" and not session.paths.chart.exists()
    loop.run(session)
    assert session.paths.chart.is_file()


def test_every_stop_is_one_of_our_errors_and_only_the_failures_carry_an_exit_code():
    assert issubclass(RunStopped, AutoresearchError)
    assert issubclass(ErrorsStop, KeepsFailing) and issubclass(OutOfScopeStop, SafetyStop)
    assert (ErrorsStop.exit_code, OutOfScopeStop.exit_code, RunStopped.exit_code) == (KEEPS_FAILING, SAFETY_GATE, None)


def test_only_a_keeps_line_clears_the_pending_file_a_drop_writes_nothing_to_it(tmp_path):
    """A KEEP's line is written down before its commit and blanked once written; a DROP has none: its cycle
    leaves the blank file as it was (it was written over with blanks every cycle)."""
    session = started(
        experiment(tmp_path, scores(a=0), {2: write(scores(a=1), "fix a"), 3: write(scores(a=0), "break a")})
    )
    engine.cycle(session, 2)
    path = session.paths.meta / "pending-keep.json"
    assert lines(session)[-1]["decision"] == "keep" and path.read_text().strip() == ""
    before = path.stat()
    engine.cycle(session, 3)
    assert lines(session)[-1]["decision"] == "drop"
    assert path.stat().st_mtime_ns == before.st_mtime_ns and path.read_text().strip() == ""
