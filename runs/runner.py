"""The built-in runner: tests in parallel on a shared thread pool, streamed as they finish, cancellable.

`EvalRun` is an iterator of per-test results (repeats already combined) in
completion order. It runs `workers` slots, each taking the next attempt
as soon as it is free, only while the budget lasts and nobody called
`cancel()`, so a caller that has seen enough stops paying for the rest.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from runs.evalfile.model import Case, Suite
from runs.evalfile.workspace import Hook
from runs.runner_case import TestResult, combine, run_case
from runs.runner_conversation import run_conversation
from runs.targets.resolve import Targets
from runs.workspace.lifecycle import SuiteWorkspaces

Strategy = Literal["pass_any", "pass_all", "mean"]


@dataclass(frozen=True)
class RunOptions:
    workers: int = 8
    repeat: int = 1
    strategy: Strategy = "pass_any"
    budget_usd: float = 0.0  # 0 = no limit


class EvalRun:
    def __init__(self, suite: Suite, targets: Targets, options: RunOptions = RunOptions(), target_hooks: dict[str, Hook] | None = None):
        self.suite, self.targets, self.options = suite, targets, options
        self.spent_usd = 0.0  # what the results handed to the caller cost
        self.stopped: str | None = None  # why dispatching stopped early: "cancelled" or "budget"
        self._cancelled = threading.Event()
        self._closed = threading.Event()  # the caller stopped iterating, for whatever reason
        self._lock = threading.Lock()
        self._pending = deque((case, attempt) for case in suite.cases for attempt in range(options.repeat))
        self._charged_usd = 0.0  # what finished attempts cost, as the budget sees it
        self._done: queue.Queue[TestResult | BaseException | object] = queue.Queue()
        self.workspaces = SuiteWorkspaces(suite, target_hooks)  # AgentV workspaces (and the target's hooks, run in them)

    def cancel(self) -> None:
        """Dispatch nothing more; the iterator ends without waiting for attempts still running."""
        self._cancelled.set()

    def __iter__(self) -> Iterator[TestResult]:
        attempts: dict[str, list[TestResult]] = {}
        self.workspaces.open()
        slots = min(1 if self.workspaces.serial else max(1, self.options.workers), len(self._pending))
        pool = ThreadPoolExecutor(max_workers=max(1, slots), thread_name_prefix="eval")
        interrupted = False
        try:
            for _ in range(slots):
                pool.submit(self._slot)
            while slots and not self._cancelled.is_set():
                item = self._done.get()
                if item is _SLOT_DONE:
                    slots -= 1
                    continue
                if isinstance(item, BaseException):
                    raise item
                self.spent_usd += item.cost_usd
                attempts.setdefault(item.test_id, []).append(item)
                if len(attempts[item.test_id]) == self.options.repeat:
                    yield combine(attempts.pop(item.test_id), self.options.strategy)
        except BaseException as exc:
            interrupted = not isinstance(exc, GeneratorExit)  # Ctrl-C, SIGTERM, a bug: not the caller having seen enough
            raise
        finally:
            self._closed.set()
            if self._cancelled.is_set() and self.stopped is None:
                self.stopped = "cancelled"
            # running attempts finish on their own (an answer and each grader call are bounded by their timeouts),
            # but not in a workspace that is removed under them: with workspaces, wait for them first, unless
            # the run is being interrupted, which then runs no after_all hook either
            pool.shutdown(wait=self.workspaces.active and not interrupted)
            self.workspaces.close(run_hooks=not interrupted)

    def _slot(self) -> None:
        """One worker: takes the next attempt as soon as it is free, so nothing the caller does with
        a result (writing files, drawing progress) delays the next dispatch."""
        try:
            while (item := self._take()) is not None:
                case, attempt = item
                target, grader, named = self.targets.for_case(case, attempt)
                if case.conversation is not None:
                    result = run_conversation(self.suite, case, case.conversation, target, grader, named)
                else:
                    result = run_case(self.suite, case, target, grader, attempt, named, self.workspaces)
                with self._lock:
                    self._charged_usd += result.cost_usd
                self._done.put(result)
        except BaseException as exc:  # a bug in a grader or target: re-raised on the caller's thread
            self._done.put(exc)
        finally:
            self._done.put(_SLOT_DONE)

    def _take(self) -> tuple[Case, int] | None:
        with self._lock:
            if self._cancelled.is_set() or self._closed.is_set() or not self._pending:
                return None
            if self.options.budget_usd and self._charged_usd >= self.options.budget_usd:
                self.stopped = "budget"
                self._pending.clear()
                return None
            return self._pending.popleft()


_SLOT_DONE = object()
