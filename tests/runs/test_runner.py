"""The runner: tests really overlap, repeats combine by strategy, the budget stops dispatch, cancel() ends the stream."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from autoresearch.runs.evaluators.builtin import prepare
from autoresearch.runs.runner.run import EvalRun, RunOptions
from tests.helpers.scenario import wait_for
from tests.runs.evaltree import write_tree

GATE = """\
import pathlib, sys, time
here = pathlib.Path(sys.argv[2])
(here / ("started-" + sys.argv[1])).touch()
deadline = time.monotonic() + 20
while len(list(here.glob("started-*"))) < int(sys.argv[3]):
    if time.monotonic() > deadline:
        sys.exit("the other tests never started: not running in parallel")
    time.sleep(0.01)
open(sys.argv[4], "w").write("together")
"""


def contains(value: str) -> list[dict]:
    return [{"type": "contains", "value": value}]


def test_tests_run_at_the_same_time(tmp_path):
    (tmp_path / "gate.py").write_text(GATE)
    command = f"{sys.executable} ../gate.py {{EVAL_ID}} {tmp_path} 4 {{OUTPUT_FILE}}"
    tests = [{"id": f"t{i}", "input": "x", "assertions": contains("together")} for i in range(4)]
    eval_file = write_tree(tmp_path, tests, {}, targets=[{"name": "canned", "provider": "cli", "command": command}])
    results = list(EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=4)))
    assert sorted((r.test_id, r.score) for r in results) == [(f"t{i}", 1.0) for i in range(4)]


def test_free_workers_take_the_next_tests_while_the_caller_is_busy_with_a_result(tmp_path):
    mark = "import pathlib, sys; pathlib.Path(sys.argv[2], 'started-' + sys.argv[1]).touch(); open(sys.argv[3], 'w').write('yes')"
    command = f'{sys.executable} -c "{mark}" {{EVAL_ID}} {tmp_path} {{OUTPUT_FILE}}'
    tests = [{"id": f"t{i}", "input": "x", "assertions": contains("yes")} for i in range(4)]
    eval_file = write_tree(tmp_path, tests, {}, targets=[{"name": "canned", "provider": "cli", "command": command}])
    results = iter(EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=2)))
    first = next(results)
    # the caller holds its first result; both slots freed by t0 and t1 go on without it
    wait_for(lambda: all((tmp_path / f"started-t{i}").exists() for i in range(4)))
    assert sorted([first.test_id, *(r.test_id for r in results)]) == ["t0", "t1", "t2", "t3"]


def test_repeat_strategies(tmp_path):
    eval_file = write_tree(
        tmp_path, [{"id": "flaky", "input": "x", "assertions": contains("yes")}], {"flaky": ["yes", "no", "yes"]}
    )
    prepared = _prepared(eval_file, tmp_path)
    got = {}
    for strategy in ("pass_any", "pass_all", "mean"):
        [result] = list(EvalRun(*prepared, RunOptions(workers=3, repeat=3, strategy=strategy)))
        got[strategy] = (result.score, result.status, sorted(result.attempt_scores))
    assert got == {
        "pass_any": (1.0, "ok", [0.0, 1.0, 1.0]),
        "pass_all": (0.0, "quality_failure", [0.0, 1.0, 1.0]),
        "mean": (2 / 3, "quality_failure", [0.0, 1.0, 1.0]),
    }


def test_budget_stops_dispatching_new_tests(tmp_path):
    envelope = {"text": "yes", "cost_usd": 0.01}
    tests = [{"id": f"t{i}", "input": "x", "assertions": contains("yes")} for i in range(10)]
    eval_file = write_tree(tmp_path, tests, {f"t{i}": envelope for i in range(10)})
    run = EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=1, budget_usd=0.03))
    results = list(run)
    assert [r.test_id for r in results] == ["t0", "t1", "t2"]
    assert run.stopped == "budget" and abs(run.spent_usd - 0.03) < 1e-12


def test_cancel_ends_the_stream_and_dispatches_nothing_more(tmp_path):
    tests = [{"id": f"t{i}", "input": "x", "assertions": contains("yes")} for i in range(6)]
    eval_file = write_tree(tmp_path, tests, {f"t{i}": "yes" for i in range(6)})
    run = EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=1))
    seen = []
    for result in run:
        seen.append(result.test_id)
        run.cancel()
    assert seen == ["t0"] and run.stopped == "cancelled"


class BuggyTarget:
    """A target whose code has a bug (not a target failure): the run must not swallow it."""

    name, grader_target, provider = "buggy", None, "cli"  # a command target's failures are retried; a bug is not

    def answer(self, case, attempt, cwd=None):
        raise ZeroDivisionError("a bug in a target")


def test_a_bug_in_a_target_is_raised_to_the_caller_not_lost(tmp_path):
    tests = [{"id": f"t{i}", "input": "x", "assertions": contains("yes")} for i in range(3)]
    suite, targets = _prepared(write_tree(tmp_path, tests, {}), tmp_path)
    targets.built = {name: BuggyTarget() for name in targets.built}
    with pytest.raises(ZeroDivisionError, match="a bug in a target"):
        list(EvalRun(suite, targets, RunOptions(workers=2)))


def test_a_failing_target_is_an_execution_error_for_that_test_only(tmp_path):
    command = f"{sys.executable} -c \"import sys; sys.exit(3) if sys.argv[1] == 'bad' else open(sys.argv[2], 'w').write('yes')\" {{EVAL_ID}} {{OUTPUT_FILE}}"
    tests = [{"id": i, "input": "x", "assertions": contains("yes")} for i in ("good", "bad")]
    eval_file = write_tree(tmp_path, tests, {}, targets=[{"name": "canned", "provider": "cli", "command": command}])
    results = {r.test_id: r for r in EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=2, max_retries=0))}
    assert (results["good"].status, results["bad"].status) == ("ok", "execution_error")
    assert "exited 3" in results["bad"].error


HANG = "import subprocess, sys; child = subprocess.Popen(['sleep', '600']); open(sys.argv[1], 'w').write(str(child.pid)); child.wait()"


def test_a_command_target_past_its_timeout_is_killed_with_its_children(tmp_path):
    command = f'{sys.executable} -c "{HANG}" {tmp_path / "child.pid"} {{OUTPUT_FILE}}'
    # 10 s, not 1: the target must have started its child before it is killed, and a python start of ~1 s
    # on a loaded machine could be killed first (no child.pid to read)
    targets = [{"name": "canned", "provider": "cli", "command": command, "timeout_seconds": 10}]
    eval_file = write_tree(tmp_path, [{"id": "slow", "input": "x", "assertions": contains("yes")}], {}, targets=targets)
    [result] = list(EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=1, max_retries=0)))
    assert result.status == "execution_error" and result.error == "target canned timed out after 10s"
    child = int((tmp_path / "child.pid").read_text())
    wait_for(lambda: not _running(child))


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may never reap the orphan)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _prepared(eval_file, root):
    prepared = prepare(eval_file, root)
    return prepared.suite, prepared.targets


FLAKY = """\
import sys
import threading
open(sys.argv[2], "a").write(sys.argv[1] + "\\n")
if int(sys.argv[1]) < int(sys.argv[3]):
    sys.exit("not yet")
open(sys.argv[4], "w").write("yes")
"""


def flaky_tree(tmp_path: Path, fails: int) -> Path:
    """A target that fails while {ATTEMPT} is below `fails`, logging each {ATTEMPT} it is given."""
    (tmp_path / "flaky.py").write_text(FLAKY)
    command = f"{sys.executable} ../flaky.py {{ATTEMPT}} {tmp_path / 'attempts.log'} {fails} {{OUTPUT_FILE}}"
    targets = [{"name": "canned", "provider": "cli", "command": command}]
    return write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": contains("yes")}], {}, targets=targets)


def test_a_failed_cli_answer_is_asked_twice_more_by_default_as_agentv_asks_it(tmp_path):
    [result] = list(EvalRun(*_prepared(flaky_tree(tmp_path, fails=2), tmp_path), RunOptions(workers=1)))
    assert result.status == "ok" and result.score == 1.0
    assert (tmp_path / "attempts.log").read_text().split() == ["0", "1", "2"]  # {ATTEMPT} counts the retries


def test_max_retries_bounds_the_retries_and_the_last_failure_is_the_tests_error(tmp_path):
    [result] = list(EvalRun(*_prepared(flaky_tree(tmp_path, fails=5), tmp_path), RunOptions(workers=1, max_retries=1)))
    assert result.status == "execution_error" and "not yet" in (result.error or "")
    assert (tmp_path / "attempts.log").read_text().split() == ["0", "1"]


def test_a_cli_target_without_output_file_fails_every_test_unrun_and_unretried(tmp_path):
    command = f"{sys.executable} -c \"open('ran', 'w').write('x'); print('yes')\""
    targets = [{"name": "canned", "provider": "cli", "command": command}]
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": contains("yes")}], {}, targets=targets)
    [result] = list(EvalRun(*_prepared(eval_file, tmp_path), RunOptions(workers=1)))
    assert result.status == "execution_error" and result.score == 0
    assert (result.error or "").startswith(
        "Failed to read output file: the command of target canned has no {OUTPUT_FILE}"
    )
    assert not (tmp_path / "evals" / "ran").exists()


def test_a_run_whose_caller_stops_reading_asks_no_failed_answer_again(tmp_path):
    """The retry's wait ends when the caller closes the run: no command starts for a result nobody reads."""
    (tmp_path / "flaky.py").write_text(FLAKY)
    log = tmp_path / "attempts.log"
    command = f"{sys.executable} ../flaky.py {{ATTEMPT}} {log} 99 {{OUTPUT_FILE}}"
    fast = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write('yes')\" {{OUTPUT_FILE}}"
    targets = [
        {"name": "canned", "provider": "cli", "command": command},
        {"name": "fast", "provider": "cli", "command": fast},
    ]
    tests = [
        {"id": "slow", "input": "x", "assertions": contains("yes")},
        {"id": "quick", "input": "x", "assertions": contains("yes"), "execution": {"target": "fast"}},
    ]
    run = EvalRun(
        *_prepared(write_tree(tmp_path, tests, {}, targets=targets), tmp_path), RunOptions(workers=2, max_retries=5)
    )
    results = iter(run)
    assert next(results).test_id == "quick"
    wait_for(log.exists)  # the slow test failed once and waits to be asked again (1 s, then 2, 4, 8, 16)
    results.close()
    wait_for(lambda: not any(t.name.startswith("eval") for t in threading.enumerate()), timeout=5)
    assert log.read_text().split() == ["0"]
