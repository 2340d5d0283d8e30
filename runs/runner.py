"""The built-in runner: tests in parallel on a shared thread pool, streamed as they finish, cancellable.

`EvalRun` is an iterator of per-test results (repeats already combined) in
completion order. It keeps at most `workers` attempts in flight and
dispatches the next only while the budget lasts and nobody called
`cancel()`, so a caller that has seen enough stops paying for the rest.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from runs.evalfile.model import Suite
from runs.runner_case import TestResult, combine, run_case
from runs.targets.resolve import Targets

Strategy = Literal["pass_any", "pass_all", "mean"]


@dataclass(frozen=True)
class RunOptions:
    workers: int = 8
    repeat: int = 1
    strategy: Strategy = "pass_any"
    budget_usd: float = 0.0  # 0 = no limit


class EvalRun:
    def __init__(self, suite: Suite, targets: Targets, options: RunOptions = RunOptions()):
        self.suite, self.targets, self.options = suite, targets, options
        self.spent_usd = 0.0
        self.stopped: str | None = None  # why dispatching stopped early: "cancelled" or "budget"
        self._cancelled = threading.Event()
        self._pending = [(case, attempt) for case in suite.cases for attempt in range(options.repeat)]
        self._done: queue.Queue[Future[TestResult]] = queue.Queue()

    def cancel(self) -> None:
        """Dispatch nothing more; the iterator ends without waiting for attempts still running."""
        self._cancelled.set()

    def __iter__(self) -> Iterator[TestResult]:
        attempts: dict[str, list[TestResult]] = {}
        in_flight = 0
        pool = ThreadPoolExecutor(max_workers=max(1, self.options.workers), thread_name_prefix="eval")
        try:
            in_flight += self._dispatch(pool, self.options.workers)
            while in_flight and not self._cancelled.is_set():
                result = self._done.get().result()
                in_flight -= 1
                self.spent_usd += result.cost_usd
                attempts.setdefault(result.test_id, []).append(result)
                in_flight += self._dispatch(pool, 1)  # before yielding: the caller's bookkeeping must not idle a worker
                if len(attempts[result.test_id]) == self.options.repeat:
                    yield combine(self.suite, attempts.pop(result.test_id), self.options.strategy)
        finally:
            if self._cancelled.is_set() and self.stopped is None:
                self.stopped = "cancelled"
            # running attempts finish on their own (each is bounded by its target's timeout)
            pool.shutdown(wait=False, cancel_futures=True)

    def _dispatch(self, pool: ThreadPoolExecutor, count: int) -> int:
        sent = 0
        while sent < count and self._pending and not self._cancelled.is_set():
            if self.options.budget_usd and self.spent_usd >= self.options.budget_usd:
                self.stopped = "budget"
                self._pending.clear()
                break
            case, attempt = self._pending.pop(0)
            target, grader = self.targets.for_case(case)
            future = pool.submit(run_case, self.suite, case, target, grader, attempt)
            future.add_done_callback(self._done.put)
            sent += 1
        return sent
