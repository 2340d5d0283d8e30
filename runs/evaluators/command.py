"""Evaluators that run the user's own command: rows from index.jsonl, or one number from its output."""

from __future__ import annotations

import json
import math
import re
import shlex
from pathlib import Path

from autoresearch.plumbing import process, sandbox
from autoresearch.plumbing.paths import RUNS
from autoresearch.plumbing.program import missing_program
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.errors import BadResults, EvalFailed, RunsError
from autoresearch.runs.evaluators import EvalOutcome
from autoresearch.runs.executors import Executor, LostAttempts
from autoresearch.runs.executors.whole import run_whole
from autoresearch.runs.results import INDEX, Row, load_rows, require_unit_scores


def expand(command: str, run_dir: Path) -> str:
    return command.replace("{run_dir}", shlex.quote(str(run_dir)))


def run_eval_command(config: EvalConfig, repo_root: Path, run_dir: Path) -> process.Completed:
    """Run the eval command; a timeout or non-zero exit is an `EvalFailed` naming the cause."""
    assert config.command is not None
    box = _sandbox(repo_root, run_dir) if config.sandbox else None
    run_dir.mkdir(parents=True, exist_ok=True)  # before the sandbox binds it
    seen = box.seen(run_dir) if box else run_dir
    command = expand(config.command, seen)
    done = process.run(
        box.argv(["/bin/sh", "-c", command], repo_root.resolve()) if box else command,
        cwd=repo_root,
        log_prefix=run_dir / "eval",
        timeout_s=config.timeout_s,
        env={"AUTORESEARCH_RUN_DIR": str(seen)},
    )
    if done.timed_out:
        raise EvalFailed(f"eval timed out after {config.timeout_s:g}s")
    if done.returncode != 0:
        raise EvalFailed(f"eval exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
    return done


def _sandbox(repo_root: Path, run_dir: Path) -> sandbox.Sandbox:
    """`eval.sandbox`: the checkout readable, the run directory writable, and the results directory it lies in
    (`<results>/runs/<experiment>/...`) not there: the other runs, the records, the token."""
    results = next((p.parent for p in run_dir.resolve().parents if p.name == RUNS), None)
    return sandbox.Sandbox(
        hidden=(results,) if results else (), readable=(repo_root,), program=sandbox.program() or sandbox.PROGRAM
    ).opening(work=run_dir)


def check_eval_command(config: EvalConfig, repo_root: Path) -> None:
    """Refuse now (exit 30) an eval command that cannot start, such as the `path/to/eval` placeholder of `init`."""
    problem = missing_program(config.command or "", repo_root)
    if problem:
        raise RunsError(f"{config.field('eval.command')}: {problem}")
    if config.sandbox and (why := sandbox.unavailable()):
        raise RunsError(f"{config.field('eval.sandbox')}: {why}; install bubblewrap, or set it to false")


def rows_cost(rows: list[Row]) -> float:
    return sum(float(r.get("cost_usd") or 0.0) for r in rows if isinstance(r.get("cost_usd"), (int, float)))


def command_in(root: Path, run_dir: Path, config: EvalConfig) -> None:
    """One run of the eval command in a shipped tree (an executor's task), into a run directory there."""
    run_eval_command(config, root, run_dir)


class CommandEvaluator:
    def __init__(self, config: EvalConfig, repo_root: Path, executor: Executor | None = None):
        self.config, self.repo_root, self.executor = config, repo_root, executor

    def check(self) -> None:
        check_eval_command(self.config, self.repo_root)
        if self.executor is not None:
            self.executor.connect()

    def run(self, run_dir: Path) -> EvalOutcome:
        lost = LostAttempts()
        if self.executor is None:
            run_eval_command(self.config, self.repo_root, run_dir)
        else:  # the run directory is made on the worker and unpacked here, where the records are
            run_whole(self.executor, run_dir, lost, command_in, self.config)
        index = run_dir / INDEX
        if not index.exists():
            raise EvalFailed(f"eval wrote no {INDEX} in {run_dir}")
        try:
            rows = load_rows(index)
            require_unit_scores(index, rows)
        except BadResults as exc:
            raise EvalFailed(f"malformed results: {exc}") from None
        if not rows:
            raise EvalFailed(f"{index} has no result rows")
        return EvalOutcome(rows, rows_cost(rows), lost.noted())


class MetricEvaluator:
    """One number from the command's output becomes one test named after the metric."""

    TEST_ID = "metric"

    def __init__(self, config: EvalConfig, repo_root: Path):
        self.config, self.repo_root = config, repo_root
        assert config.metric is not None
        try:
            self.pattern = re.compile(config.metric.pattern)
        except re.error as exc:
            raise RunsError(f"{config.field('eval.metric.pattern')}: not a valid regex ({exc})") from None

    def check(self) -> None:
        if self.pattern.groups < 1:
            raise RunsError(f"{self.config.field('eval.metric.pattern')}: needs one capturing group")
        check_eval_command(self.config, self.repo_root)

    def run(self, run_dir: Path) -> EvalOutcome:
        done = run_eval_command(self.config, self.repo_root, run_dir)
        value = self._find(done.stdout)
        if value is None:
            value = self._find(done.stderr)
        if value is None:
            raise EvalFailed(f"metric pattern {self.pattern.pattern!r} matched nothing in the eval's output")
        if not math.isfinite(value):  # a diverged run prints `nan`: no comparison or JSON line can hold it
            raise EvalFailed(f"metric {value} is not a finite number")
        row = {
            "test_id": self.TEST_ID,
            "score": value,
            "execution_status": "ok",
            "scores": [{"name": self.TEST_ID, "type": "metric", "score": value}],
        }
        (run_dir / INDEX).write_text(json.dumps(row) + "\n", encoding="utf-8")
        return EvalOutcome([row])

    def _find(self, text: str) -> float | None:
        matches = self.pattern.findall(text)
        if not matches:
            return None
        last = matches[-1]
        try:
            return float(last[0] if isinstance(last, tuple) else last)
        except ValueError:
            return None
