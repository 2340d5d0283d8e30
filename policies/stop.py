"""Stop rules: whether the loop may start another cycle, from counts and scores alone.

The counts are those of the current run: each run of an existing experiment
may make `max_cycles` new cycles and gets a fresh plateau and error count, so a
nightly cron line does its work every night. A run interrupted (a signal,
`stop`, a crash) is continued by the next one rather than started afresh, so
that stopping and resuming ends where an uninterrupted run would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

StopReason = Literal[
    "out-of-scope",  # the mutator kept changing files outside the artifact (exit 20)
    "errors",  # cycles kept failing (exit 40)
    "target",
    "max_cycles",
    "converged",
    "budget",
    "deadline",
    "stop-requested",  # `autoresearch stop`, or a STOP file
    "mutations-exhausted",  # a replay mutator has no edit left
    "interrupted",  # a signal
    "failed",  # an error ended the run
]

# How a run can end without finishing: the next run goes on with its counts.
INTERRUPTIONS: frozenset[StopReason] = frozenset({"interrupted", "stop-requested", "failed"})


@dataclass(frozen=True)
class Progress:
    cycles_done: int  # this run's cycles (the original's included in an experiment's first run)
    cycles_without_keep: int
    errors_in_a_row: int
    out_of_scope_total: int
    best_score: float | None = None  # the artifact at HEAD (the last KEEP), whichever run made it


@dataclass(frozen=True)
class Limits:
    max_cycles: int = 10  # per run; 0 means no limit
    max_convergence: int = 3
    max_errors_in_a_row: int = 3
    max_out_of_scope: int = 3
    target_score: float | None = None  # None means no target
    minimize: bool = False  # the eval's goal: a lower score is better (metric mode)


def stop_reason(p: Progress, limits: Limits) -> StopReason | None:
    """The first limit reached, named as it appears in state.json and the report; None to go on."""
    if limits.max_out_of_scope and p.out_of_scope_total >= limits.max_out_of_scope:
        return "out-of-scope"
    if limits.max_errors_in_a_row and p.errors_in_a_row >= limits.max_errors_in_a_row:
        return "errors"
    if reached_target(p.best_score, limits):
        return "target"
    if limits.max_cycles and p.cycles_done >= limits.max_cycles:
        return "max_cycles"
    if limits.max_convergence and p.cycles_without_keep >= limits.max_convergence:
        return "converged"
    return None


def reached_target(best: float | None, limits: Limits) -> bool:
    """Whether the best score is at the target or beyond it, in the eval's direction."""
    if limits.target_score is None or best is None:
        return False
    return best <= limits.target_score if limits.minimize else best >= limits.target_score


def continues_run(previous_status: str | None, previous_reason: str | None) -> bool:
    """Whether a new run goes on with the last run's counts: the last one died ("running" with
    nobody holding the lock) or was interrupted, instead of reaching a stop rule."""
    return previous_status == "running" or previous_reason in INTERRUPTIONS


def budget_stop(spent_usd: float, expected_cycle_usd: float, budget_usd: float) -> StopReason | None:
    """Refuse a cycle that the recent cycles' cost says would overspend (0 = no budget)."""
    if budget_usd and spent_usd + expected_cycle_usd > budget_usd:
        return "budget"
    return None


def time_stop(now_s: float, deadline_s: float | None, expected_cycle_s: float) -> StopReason | None:
    """Refuse a cycle that the recent cycle duration says would cross the deadline (epoch seconds)."""
    if deadline_s is not None and now_s + expected_cycle_s > deadline_s:
        return "deadline"
    return None
