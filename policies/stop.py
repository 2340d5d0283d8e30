"""Stop rules: whether the loop may start another cycle, from counts alone."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Progress:
    cycles_done: int
    cycles_without_keep: int
    errors_in_a_row: int
    out_of_scope_total: int


@dataclass(frozen=True)
class Limits:
    max_cycles: int = 10  # 0 means no limit
    max_convergence: int = 3
    max_errors_in_a_row: int = 3
    max_out_of_scope: int = 3


def stop_reason(p: Progress, limits: Limits) -> str | None:
    """The first limit reached, named as it appears in state.json and the report; None to go on."""
    if limits.max_out_of_scope and p.out_of_scope_total >= limits.max_out_of_scope:
        return "out-of-scope"
    if limits.max_errors_in_a_row and p.errors_in_a_row >= limits.max_errors_in_a_row:
        return "errors"
    if limits.max_cycles and p.cycles_done >= limits.max_cycles:
        return "max_cycles"
    if limits.max_convergence and p.cycles_without_keep >= limits.max_convergence:
        return "converged"
    return None


def budget_stop(spent_usd: float, expected_cycle_usd: float, budget_usd: float) -> str | None:
    """Refuse a cycle that the recent cycles' cost says would overspend (0 = no budget)."""
    if budget_usd and spent_usd + expected_cycle_usd > budget_usd:
        return "budget"
    return None


def time_stop(now_s: float, deadline_s: float | None, expected_cycle_s: float) -> str | None:
    """Refuse a cycle that the recent cycle duration says would cross the deadline (epoch seconds)."""
    if deadline_s is not None and now_s + expected_cycle_s > deadline_s:
        return "deadline"
    return None
