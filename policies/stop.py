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
