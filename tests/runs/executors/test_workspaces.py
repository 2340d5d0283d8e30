"""AgentV workspaces on an executor, without a cluster: each call runs the worker's own task function in this
process, on a snapshot of the tree, as a Ray task would (test_ray.py runs the same evals on a real cluster).

Per-test workspaces are set up inside each attempt's task, a shared workspace's eval is one task, and the rows
are the local ones either way; the driver sets up no workspace of its own.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator, prepare
from autoresearch.runs.executors import TaskFailed
from autoresearch.runs.executors.snapshot import Snapshot, build
from autoresearch.runs.executors.worker import run_in_snapshot
from autoresearch.runs.parse import check
from autoresearch.runs.runner import case as runner_case
from autoresearch.runs.runner.run import EvalRun, RunOptions
from autoresearch.runs.workspace.per_target import RunWorkspaces
from tests.runs.executors.workspace_evals import PER_TEST_SCORES, SHARED_SCORES, workspace_repo


class InProcess:
    """The Executor protocol without Ray: the snapshot Ray would ship, and the task function its workers run,
    called here one at a time (as a Ray worker process runs its tasks)."""

    def __init__(self, root: Path):
        self.root, self.calls = root, 0
        self._one_at_a_time = threading.Lock()

    def connect(self) -> None:
        pass

    def ship(self, fresh: bool = False) -> tuple[Snapshot, bool]:
        return build(self.root, [".autoresearch"], 10**8), fresh

    def call(self, shipped: tuple[Snapshot, bool], fn: Any, *args: Any, lost: Any = None) -> Any:
        """`lost` is never told: no node is lost here."""
        snapshot, fresh = shipped
        with self._one_at_a_time:
            self.calls += 1
            try:
                return run_in_snapshot(snapshot.data, snapshot.digest, {}, fresh, fn, *args)
            except Exception as exc:  # what Ray hands the driver for a task that raised
                raise TaskFailed(str(exc)) from None


@pytest.fixture(autouse=True)
def scratch(tmp_path, monkeypatch) -> Path:
    """Every temporary folder (workspaces, unpacked snapshots) under the test's own directory."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def run(repo: Path, executor: InProcess | None, watch=None) -> list[dict]:
    config = EvalConfig.model_validate(yaml.safe_load((repo / "autoresearch.yaml").read_text())["eval"])
    outcome = BuiltinEvaluator(config, repo, executor).run(repo / "run", watch=watch)
    return sorted(outcome.rows, key=lambda r: r["test_id"])


def graded(rows: list[dict]) -> list[tuple]:
    """What a row says about its test, without the times a run measures."""
    return [(r["test_id"], r["score"], r["execution_status"], r["scores"], r.get("error")) for r in rows]


def test_which_suites_share_one_workspace(tmp_path):
    def shares(workspace: dict) -> bool:
        eval_file = tmp_path / "suite.eval.yaml"
        eval_file.write_text(
            yaml.safe_dump({"workspace": workspace, "tests": [{"id": "t", "input": "q", "criteria": "c"}]})
        )
        (tmp_path / "template").mkdir(exist_ok=True)
        suite, problems = check(eval_file)
        assert suite is not None and not problems
        return RunWorkspaces(suite, {}).shares

    assert shares({"template": "./template"})
    assert shares({"hooks": {"before_all": {"command": ["true"]}}})
    assert not shares({"template": "./template", "isolation": "per_test"})
    assert not shares({"isolation": "shared"})  # nothing to put in it


def test_per_test_workspaces_are_set_up_in_each_attempts_task_with_the_local_rows(tmp_path):
    local = run(workspace_repo(tmp_path / "local", shared=False), None)
    repo = workspace_repo(tmp_path / "remote", shared=False)
    executor = InProcess(repo)
    remote = run(repo, executor)
    assert graded(remote) == graded(local)
    assert [r["score"] for r in remote] == PER_TEST_SCORES
    assert executor.calls == 4  # one task per test


def test_a_shared_workspace_is_one_task_with_the_local_rows_and_run_directory(tmp_path):
    local = run(workspace_repo(tmp_path / "local", shared=True), None)
    repo = workspace_repo(tmp_path / "remote", shared=True)
    executor = InProcess(repo)
    remote = run(repo, executor, watch=lambda row: True)  # nothing stops a task midway: every test runs
    assert graded(remote) == graded(local)
    assert [r["score"] for r in remote] == SHARED_SCORES
    assert executor.calls == 1
    assert sorted(p.name for p in (repo / "run").iterdir()) == [
        "benchmark.json",
        "index.jsonl",
        "t0",
        "t1",
        "t2",
        "t3",
        "timing.json",
    ]
    # recorded under the eval file it came from, not the worker's temporary copy
    recorded = json.loads((repo / "run" / "benchmark.json").read_text())["metadata"]["eval_file"]
    assert recorded == str((repo / "evals" / "suite.eval.yaml").resolve())


def test_a_shared_setup_that_fails_is_the_same_eval_failure_on_an_executor(tmp_path):
    failures = []
    for name, remote in (("local", False), ("remote", True)):
        repo = workspace_repo(tmp_path / name, shared=True)
        eval_file = repo / "evals" / "suite.eval.yaml"
        suite = yaml.safe_load(eval_file.read_text())
        suite["workspace"]["hooks"]["before_all"]["command"] = ["false"]
        eval_file.write_text(yaml.safe_dump(suite))
        with pytest.raises(EvalFailed) as failed:
            run(repo, InProcess(repo) if remote else None)
        failures.append(str(failed.value))
    assert failures[0] == failures[1]
    assert "every test failed to run; first error: before_all script failed" in failures[1]


def test_the_driver_sets_up_no_workspace_when_attempts_run_elsewhere(tmp_path, scratch):
    repo = workspace_repo(tmp_path / "repo", shared=False)
    prepared = prepare(repo / "evals" / "suite.eval.yaml", repo)

    def elsewhere(case, attempt, trials) -> runner_case.TestResult:
        return runner_case.TestResult(case, "agent", score=1.0, status="ok")

    results = list(EvalRun(prepared.suite, prepared.targets, RunOptions(workers=2, remote=elsewhere)))
    assert len(results) == 4
    assert list(scratch.iterdir()) == []  # not even the workspaces' temporary folder was made here


def test_a_first_test_without_a_workspace_shares_none_with_the_next_one(tmp_path):
    """AgentV takes the suite's workspace from its first test: with none there, a later test's own workspace
    is its own, on the executor too (set up in its task)."""
    tests = [
        {"id": "t1", "input": "q", "assertions": [{"type": "contains", "value": "ready=none"}]},
        {
            "id": "t0",
            "input": "q",
            "workspace": {"template": "./template"},
            "assertions": [{"type": "code-grader", "command": [sys.executable, "changes.py", "t0"]}],
        },
    ]
    rows = []
    for name, remote in (("local", False), ("remote", True)):
        repo = workspace_repo(tmp_path / name, shared=False)
        eval_file = repo / "evals" / "suite.eval.yaml"
        suite = yaml.safe_load(eval_file.read_text())
        eval_file.write_text(yaml.safe_dump({"execution": suite["execution"], "tests": tests}))
        (repo / "evals" / "agent.py").write_text((repo / "evals" / "template" / "agent.py").read_text())
        rows.append(graded(run(repo, InProcess(repo) if remote else None)))
    assert rows[0] == rows[1]
    assert [score for _, score, *_ in rows[1]] == [1.0, 1.0]
