"""Why a run ends, as exceptions: raised where the reason is found, caught once by the loop.

Each carries its reason (the name state.json and the report show). Every stop is one of our errors
(`AutoresearchError`), but only the two that end a run in failure carry an exit code (their messages read
their limits from the stop policy); any other's exit code is the run's outcome (exit 0 or 10).
"""

from __future__ import annotations

import time
from dataclasses import replace

from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.plumbing.errors import AutoresearchError, KeepsFailing, SafetyStop
from autoresearch.policies.stop import Limits, StopReason, budget_stop, stop_reason, time_stop


class RunStopped(AutoresearchError):
    """The loop makes no further cycle; the run's outcome (exit 0 or 10) says how it went. No exit code of its
    own (`exit_code_for` gives None, as for a bug, should one ever escape the loop): the failures below take
    theirs from the error class they name first."""

    exit_code = None  # type: ignore[assignment]  # a stop is not a failure: the run's outcome is its exit code

    def __init__(self, reason: StopReason, message: str = ""):
        super().__init__(message or reason)
        self.reason: StopReason = reason


class OutOfScopeStop(SafetyStop, RunStopped):  # type: ignore[misc]  # its exit code is SafetyStop's
    """The mutator changed files outside the artifact too many times (exit 20)."""

    def __init__(self, limits: Limits):
        message = (
            f"stopped: the mutator changed files outside the artifact {limits.max_out_of_scope} times; see daemon.log"
        )
        super().__init__("out-of-scope", message)


class ErrorsStop(KeepsFailing, RunStopped):  # type: ignore[misc]  # its exit code is KeepsFailing's
    """Too many cycles in a row failed (exit 40)."""

    def __init__(self, limits: Limits, last_error: str | None):
        super().__init__(
            "errors", f"stopped: {limits.max_errors_in_a_row} cycles in a row failed; last error: {last_error}"
        )


def limits_of(session: Session) -> Limits:
    stop = session.config.stop
    return Limits(
        max_cycles=stop.max_cycles,
        max_convergence=stop.max_convergence,
        target_score=stop.target_score,
        minimize=session.config.eval.goal == "minimize",
    )


def check(session: Session, limits: Limits) -> None:
    """Before a cycle: raise the stop that applies (the first limit reached, then the budget, the
    deadline, a STOP file), or return to go on."""
    history, stop = session.history, session.config.stop
    progress = history.progress(session.state.run_start_cycle)
    if session.stale_baseline:  # HEAD's score is another eval's until HEAD is measured again: it reaches no target
        progress = replace(progress, best_score=None)
    reason = (
        stop_reason(progress, limits)
        or budget_stop(
            history.spent_usd, history.expected_cycle_cost(session.config.search.candidates), stop.budget_usd
        )
        or time_stop(time.time(), session.deadline_s, history.expected_cycle_s())
    )
    if reason == "out-of-scope":
        raise OutOfScopeStop(limits)
    if reason == "errors":
        raise ErrorsStop(limits, history.last.error if history.last else None)
    if reason:
        raise RunStopped(reason)
    if stop_requested(session):
        raise RunStopped("stop-requested")


def foreseen(session: Session, limits: Limits) -> bool:
    """During a cycle: whether the next one will not start, whatever this one decides (its cycles, budget or
    time are spent, or a STOP file waits), so that no mutation is made ahead for it. The stops that hang on
    this cycle's outcome (a target reached, a plateau, errors) cannot be foreseen."""
    history, stop = session.history, session.config.stop
    if limits.max_cycles and history.progress(session.state.run_start_cycle).cycles_done + 1 >= limits.max_cycles:
        return True
    cost, seconds = history.expected_cycle_cost(session.config.search.candidates), history.expected_cycle_s()
    return bool(
        budget_stop(history.spent_usd + cost, cost, stop.budget_usd)
        or time_stop(time.time() + seconds, session.deadline_s, seconds)
        or stop_waiting(session)
    )


def stop_waiting(session: Session) -> bool:
    """Whether a STOP file waits for the next check, which consumes it (`stop_requested`)."""
    return session.paths.stop_file.exists()


def stop_requested(session: Session) -> bool:
    """Honour (and consume) a STOP file: a stop that people without signals can ask for."""
    stop_file = session.paths.stop_file
    if stop_file.exists():
        stop_file.unlink(missing_ok=True)
        get().info("stop requested")
        return True
    return False
