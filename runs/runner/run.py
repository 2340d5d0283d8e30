"""The built-in runner: tests in parallel on a shared thread pool, streamed as they finish, cancellable.

`EvalRun` is an iterator of per-test results (repeats already combined) in
completion order. It runs `workers` slots, each taking the next attempt
as soon as it is free, only while the budget lasts and nobody called
`cancel()`, so a caller that has seen enough stops paying for the rest.
Tests with `depends_on` run in waves (AgentV's): a wave is dispatched once
the one before it has finished. A test with trials runs them one after
another in one slot (`autoresearch.runs.runner.trials`).
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from autoresearch.runs.evalfile.dependencies import dep_row_id, waves
from autoresearch.runs.evalfile.model import Case, Suite, Trials
from autoresearch.runs.runner.case import TestResult, combine, run_case
from autoresearch.runs.runner.conversation import run_conversation
from autoresearch.runs.runner.resolve import Targets
from autoresearch.runs.runner.retry import DEFAULT_MAX_RETRIES, Retries
from autoresearch.runs.runner.trials import run_trials
from autoresearch.runs.workspace.lifecycle import SuiteWorkspaces
from autoresearch.runs.workspace.per_target import RunWorkspaces

Strategy = Literal["pass_any", "pass_all", "mean"]
Remote = Callable[[Case, int, Trials | None], TestResult]  # a test, its attempt and its trials -> its result


@dataclass(frozen=True)
class RunOptions:
    workers: int = 8
    repeat: int = 1
    strategy: Strategy = "pass_any"
    budget_usd: float = 0.0  # 0 = no limit
    trials: Trials | None = None  # the eval file's trials, for tests that set none of their own
    suite_budget_usd: float = 0.0  # the eval file's budget (AgentV's): tests past it are budget errors, 0 = none
    max_retries: int = DEFAULT_MAX_RETRIES  # a failed `cli` or `replay` answer asked again this many times
    remote: Remote | None = None  # runs an attempt elsewhere (an executor's task) instead of in this process


class EvalRun:
    def __init__(self, suite: Suite, targets: Targets, options: RunOptions = RunOptions()):
        self.suite, self.targets, self.options = suite, targets, options
        self.spent_usd = 0.0  # what the results handed to the caller cost
        self.stopped: str | None = None  # why dispatching stopped early: "cancelled" or "budget"
        self._cancelled = threading.Event()
        self._closed = threading.Event()  # the caller stopped iterating, for whatever reason
        self._lock = threading.Lock()
        self._waves = deque(waves(suite.cases))
        self._pending: deque[tuple[Case, int]] = deque()
        self._charged_usd = 0.0  # what finished attempts cost, as the budget sees it
        self._suite_spent: dict[
            str | None, float
        ] = {}  # what finished tests' targets cost, per matrix target (AgentV runs each apart)
        self._finished: dict[str, TestResult] = {}  # by row id, for dependents
        self._done: queue.Queue[TestResult | BaseException | _SlotDone] = queue.Queue()
        # AgentV workspaces, and the targets' hooks run in them; none here when attempts run elsewhere (an
        # executor's task sets up each attempt's own where it runs)
        self.workspaces = RunWorkspaces(suite, targets.hooks) if options.remote is None else None

    def cancel(self) -> None:
        """Dispatch nothing more; the iterator ends without waiting for attempts still running."""
        self._cancelled.set()

    def __iter__(self) -> Iterator[TestResult]:
        if self.workspaces is not None:
            self.workspaces.open()
        pool = ThreadPoolExecutor(max_workers=self._slots(), thread_name_prefix="eval")
        interrupted = False
        try:
            while self._waves and not self._cancelled.is_set():
                yield from self._wave(pool, self._waves.popleft())
        except BaseException as exc:
            interrupted = not isinstance(
                exc, GeneratorExit
            )  # Ctrl-C, SIGTERM, a bug: not the caller having seen enough
            raise
        finally:
            self._closed.set()
            if self._cancelled.is_set() and self.stopped is None:
                self.stopped = "cancelled"
            # running attempts finish on their own (an answer and each grader call are bounded by their timeouts),
            # but not in a workspace that is removed under them: with workspaces, wait for them first, unless
            # the run is being interrupted, which then runs no after_all hook either
            pool.shutdown(wait=self.workspaces is not None and self.workspaces.active and not interrupted)
            if self.workspaces is not None:
                self.workspaces.close(run_hooks=not interrupted)

    def _slots(self) -> int:
        """Parallel attempts: the workers, or one when the tests share one AgentV workspace."""
        return 1 if self.workspaces is not None and self.workspaces.serial else max(1, self.options.workers)

    def _wave(self, pool: ThreadPoolExecutor, cases: list[Case]) -> Iterator[TestResult]:
        attempts: dict[str, list[TestResult]] = {}
        with self._lock:
            if self.stopped == "budget":
                return
            self._pending = deque((case, attempt) for case in cases for attempt in range(self._attempts(case)))
        slots = min(self._slots(), len(self._pending))
        for _ in range(slots):
            pool.submit(contextvars.copy_context().run, self._slot)  # its log lines are the run's
        while slots and not self._cancelled.is_set():
            item = self._done.get()
            if isinstance(item, _SlotDone):
                slots -= 1
                continue
            if isinstance(item, BaseException):
                raise item
            self.spent_usd += item.cost_usd
            attempts.setdefault(item.test_id, []).append(item)
            if len(attempts[item.test_id]) == self._attempts(item.case):
                done = attempts.pop(item.test_id)
                result = done[0] if len(done) == 1 else combine(done, self.options.strategy)
                self._finished[result.test_id] = result
                yield result

    def _attempts(self, case: Case) -> int:
        """Parallel attempts of a test: eval.repeat's; a test with trials is one item that runs them in turn."""
        return 1 if self._trials(case) else self.options.repeat

    def _trials(self, case: Case) -> Trials | None:
        trials = case.trials or self.options.trials
        return trials if trials is not None and trials.count > 1 and self.options.repeat == 1 else None

    def _slot(self) -> None:
        """One worker: takes the next attempt as soon as it is free, so nothing the caller does with
        a result (writing files, drawing progress) delays the next dispatch."""
        try:
            while (item := self._take()) is not None:
                case, attempt = item
                result = self._run(case, attempt)
                with self._lock:
                    self._charged_usd += result.cost_usd
                    key = result.case.matrix_target
                    self._suite_spent[key] = self._suite_spent.get(key, 0.0) + result.target_cost_usd
                self._done.put(result)
        except BaseException as exc:  # a bug in a grader or target: re-raised on the caller's thread
            self._done.put(exc)
        finally:
            self._done.put(_SLOT_DONE)

    def _run(self, case: Case, attempt: int) -> TestResult:
        blocked = self._blocked_by(case)
        if blocked:
            return _failed(case, self.targets, blocked)
        spent = self._suite_spent_by(case)
        if self.options.suite_budget_usd and spent >= self.options.suite_budget_usd:
            return _failed(
                case, self.targets, f"Suite budget exceeded (${spent:.4f} / ${self.options.suite_budget_usd:.4f})"
            )
        if self.workspaces is None:
            assert self.options.remote is not None
            return self.options.remote(case, attempt, self._trials(case))
        retries = Retries(self.options.max_retries, self._closed)  # none once the caller has stopped reading
        return run_attempt(self.suite, self.targets, case, attempt, self._trials(case), self.workspaces[case], retries)

    def _blocked_by(self, case: Case) -> str | None:
        """AgentV's rule: a test whose dependency ended in execution_error (or never ran) is not run,
        unless it says `on_dependency_failure: run`; only errors block, a low score does not."""
        if not case.depends_on or case.on_dependency_failure == "run":
            return None
        failed = [
            d
            for d in case.depends_on
            if (r := self._finished.get(dep_row_id(case, d))) is not None and r.status == "execution_error"
        ]
        missing = [d for d in case.depends_on if dep_row_id(case, d) not in self._finished]
        if not failed and not missing:
            return None
        prefix = "Skipped" if case.on_dependency_failure == "skip" else "Failed"
        return f"{prefix}: dependency failed ({', '.join(failed)})"

    def _suite_spent_by(self, case: Case) -> float:
        with self._lock:
            return self._suite_spent.get(case.matrix_target, 0.0)

    def _take(self) -> tuple[Case, int] | None:
        with self._lock:
            if self._cancelled.is_set() or self._closed.is_set() or not self._pending:
                return None
            if self.options.budget_usd and self._charged_usd >= self.options.budget_usd:
                self.stopped = "budget"
                self._pending.clear()
                return None
            return self._pending.popleft()


def run_attempt(
    suite: Suite,
    targets: Targets,
    case: Case,
    attempt: int,
    trials: Trials | None,
    workspaces: SuiteWorkspaces | None = None,
    retries: Retries = Retries(),
) -> TestResult:
    """One attempt of a test (its trials in turn, or its conversation, whose turns AgentV never retries): the
    unit an executor runs elsewhere."""
    target, grader, named = targets.for_case(case, attempt)
    if case.conversation is not None:
        return run_conversation(suite, case, case.conversation, target, grader, named)
    if trials:  # AgentV gives every trial attempt 0 ({ATTEMPT} counts its retries, not trials)
        return run_trials(trials, lambda: run_case(suite, case, target, grader, 0, named, workspaces, retries))
    return run_case(suite, case, target, grader, attempt, named, workspaces, retries)


def _failed(case: Case, targets: Targets, error: str) -> TestResult:
    """A test that was not run: an execution_error scoring 0, as AgentV writes it."""
    name = targets.per_case.get(case.row_id, "")
    return TestResult(case, name, error=error)


class _SlotDone:
    """The mark a slot puts on the queue when it has no more attempts to run (a class of its own, so the queue's
    items are typed)."""


_SLOT_DONE = _SlotDone()
