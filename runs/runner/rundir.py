"""The AgentV run directory: index.jsonl, per-test grading.json / timing.json / input.md / outputs, timing.json, benchmark.json.

Field names follow AgentV's artifact writer so `agentv compare` and its
dashboard read our runs. index.jsonl gets one whole line per test as it
completes, so a killed run still leaves every finished test on disk.
"""

from __future__ import annotations

import json
import math
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from autoresearch.plumbing import atomic
from autoresearch.plumbing.redact import redact
from autoresearch.runs.graders.scoring import DEFAULT_THRESHOLD
from autoresearch.runs.results import INDEX, safe_segment
from autoresearch.runs.runner.case import TestResult


def row(result: TestResult) -> dict[str, Any]:
    """The index.jsonl row: DESIGN.md's fields plus AgentV's artifact paths."""
    subdir = safe_segment(result.test_id)
    entry: dict[str, Any] = {
        "timestamp": result.timestamp,
        "test_id": result.test_id,
        "score": result.score,
        "target": result.target,
        "assertions": result.assertions,
        "scores": result.scores,
        "execution_status": result.status,
        "token_usage": {"input": result.input_tokens, "output": result.output_tokens},
        "cost_usd": result.cost_usd,
        "duration_ms": result.duration_ms,
        "grading_path": f"{subdir}/grading.json",
        "timing_path": f"{subdir}/timing.json",
        "input_path": f"{subdir}/input.md",
    }
    if result.output:
        entry["output_path"] = entry["response_path"] = f"{subdir}/outputs/response.md"
    if result.error:
        entry["error"] = redact(result.error)  # it may quote a provider's or a command's words
    if len(result.attempt_scores) > 1:
        entry["attempt_scores"] = result.attempt_scores
    if result.attempt_scores:
        entry["samples"] = result.attempt_scores
    if result.trials:
        entry["trials"] = result.trials
    if result.cost_limited:
        entry["cost_limited"] = True
    return entry


class RunDirWriter:
    """Writes a run directory as results arrive. Each result's row is made on the caller's thread (in
    completion order) and its files written by a few writer threads: a test's files are two folders and
    four files, and on the caller's thread alone, fighting 32 busy slots for the GIL at every system call,
    they fell behind a fast target's tests (bench/eval_cli.py: a third of a second of rows still unwritten
    when the last test ended). A test's index.jsonl row is appended after its files, by the thread that
    wrote them: the row is what commits the test."""

    WRITERS = 4

    def __init__(self, run_dir: Path, eval_file: Path):
        self.run_dir, self.eval_file = run_dir, eval_file
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / INDEX).write_text("", encoding="utf-8")
        self.results: list[TestResult] = []
        self._pool = ThreadPoolExecutor(max_workers=self.WRITERS, thread_name_prefix="rundir")
        self._index_lock = threading.Lock()
        self._writes: list[Future[None]] = []
        self._failed: list[Future[None]] = []  # writes that raised, noted as they end (no scan of every write)

    def add(self, result: TestResult) -> dict[str, Any]:
        """The result's row, its files and row written in the background; a write that failed before is raised."""
        self._raise_failed()
        self.results.append(result)
        entry = row(result)
        line = json.dumps(entry) + "\n"  # now: the caller may change the row it is handed
        write = self._pool.submit(self._write, result, line)
        write.add_done_callback(self._note)
        self._writes.append(write)
        return entry

    def _note(self, write: Future[None]) -> None:
        if write.exception() is not None:
            self._failed.append(write)

    def _write(self, result: TestResult, line: str) -> None:
        _write_test_files(self.run_dir, result)
        with self._index_lock, open(self.run_dir / INDEX, "a", encoding="utf-8") as index:
            index.write(line)

    def _raise_failed(self) -> None:
        if self._failed:
            self._failed[0].result()

    def drain(self) -> None:
        """Every result added so far on disk (an interrupted run leaves every finished test); errors wait for
        `finish`."""
        wait(self._writes)

    def finish(self, notes: list[str]) -> None:
        self.drain()
        self._pool.shutdown()
        self._raise_failed()
        with open(self.run_dir / INDEX, "a", encoding="utf-8") as index:
            os.fsync(index.fileno())
        _write_json(self.run_dir / "timing.json", timing(self.results))
        _write_json(self.run_dir / "benchmark.json", benchmark(self.results, str(self.eval_file), notes))


def _write_test_files(run_dir: Path, result: TestResult) -> None:
    """Written in place, not replaced atomically: they land before the test's index.jsonl row, which
    is what commits the test (readers follow the rows), and a rename per file cost a fifth of a
    test's disk time (bench/eval_throughput.py)."""
    test_dir = run_dir / safe_segment(result.test_id)
    test_dir.mkdir(parents=True, exist_ok=True)
    (test_dir / "outputs").mkdir(exist_ok=True)  # not `parents`: its first try, before the test's folder, always failed
    (test_dir / "grading.json").write_text(_json(grading(result)), encoding="utf-8")
    (test_dir / "timing.json").write_text(_json(timing([result])), encoding="utf-8")
    (test_dir / "input.md").write_text(_input_markdown(result), encoding="utf-8")
    if result.output:
        (test_dir / "outputs" / "response.md").write_text(f"@[assistant]:\n{result.output}", encoding="utf-8")


def grading(result: TestResult) -> dict[str, Any]:
    checks = [{"text": a["text"], "passed": a["passed"], "evidence": a.get("evidence", "")} for a in result.assertions]
    passed = sum(1 for c in checks if c["passed"])
    return {
        "assertions": checks,
        "summary": {
            "passed": passed,
            "failed": len(checks) - passed,
            "total": len(checks),
            "pass_rate": _round3(passed / len(checks)) if checks else 0,
        },
        "execution_metrics": {"tool_calls": {}, "total_tool_calls": 0, "errors_encountered": 1 if result.error else 0},
        "graders": [{**s, "reasoning": (s.get("details") or {}).get("reasoning", "")} for s in result.scores] or None,
    }


def timing(results: list[TestResult]) -> dict[str, Any]:
    inputs = sum(r.input_tokens for r in results)
    outputs = sum(r.output_tokens for r in results)
    duration = sum(r.duration_ms for r in results)
    return {
        "total_tokens": inputs + outputs,
        "duration_ms": duration,
        "total_duration_seconds": _round3(duration / 1000),
        "token_usage": {"input": inputs, "output": outputs, "reasoning": 0},
    }


def benchmark(results: list[TestResult], eval_file: str, notes: list[str]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for target in sorted({r.target for r in results}):
        mine = [r for r in results if r.target == target]
        summary[target] = {
            "pass_rate": _stats([_pass_rate(r) for r in mine]),
            "time_seconds": _stats([r.duration_ms / 1000 for r in mine]),
            "tokens": _stats([r.input_tokens + r.output_tokens for r in mine]),
            "cost_usd": _stats([r.cost_usd for r in mine]),
        }
    per_grader: dict[str, list[float]] = {}
    for result in results:
        for s in result.scores:
            per_grader.setdefault(f"{s['name']}:{s['type']}", []).append(s["score"])
    errors = sum(1 for r in results if r.status == "execution_error")
    all_notes = list(notes)
    if errors:
        all_notes.append(f"{errors} test(s) had execution errors and are included in pass_rate as failures")
    if not results:
        all_notes.append("No results to summarize")
    return {
        "metadata": {
            "eval_file": eval_file,
            "timestamp": results[0].timestamp if results else datetime.now(timezone.utc).isoformat(),
            "targets": sorted({r.target for r in results}),
            "tests_run": sorted({r.test_id for r in results}),
        },
        "run_summary": summary,
        "per_grader_summary": {key: _stats(values) for key, values in per_grader.items()} or None,
        "notes": all_notes,
    }


def _pass_rate(result: TestResult) -> float:
    if result.scores:
        return sum(1 for s in result.scores if s["score"] >= DEFAULT_THRESHOLD) / len(result.scores)
    return 1.0 if result.score >= DEFAULT_THRESHOLD else 0.0


def _stats(values: list[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0, "stddev": 0}
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    return {"mean": _round3(mean), "stddev": _round3(math.sqrt(variance))}


def _round3(value: float) -> float:
    return math.floor(value * 1000 + 0.5) / 1000


def _input_markdown(result: TestResult) -> str:
    try:
        return "\n\n".join(f"@[{m['role']}]:\n{m['content']}" for m in result.case.render_messages())
    except OSError as exc:
        return f"(input could not be read: {exc})"


def _json(value: Any) -> str:
    return json.dumps(value, indent=2) + "\n"


def _write_json(path: Path, value: Any) -> None:
    atomic.write_text(path, _json(value), durable=False)
