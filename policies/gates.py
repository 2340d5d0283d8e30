"""Promotion gates: what a candidate the keep rule would KEEP must also satisfy to be committed.

Numbers in, the first gate that blocks (with its reason) out. The gates are
checked in the order below, the safety gate (`must_pass`) first, so that a
candidate blocked by several is reported under the one that matters most.
A gate on a measurement one side lacks (an eval that reports no cost) does
not block; the run warns about it once at its start.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

SAFETY = "must_pass"  # a run in which only this gate kept every candidate out exits 20


@dataclass(frozen=True)
class Limits:
    """`gates:` as plain numbers; None (or False, or empty) is off."""

    correctness_min: float | None = None
    max_cost_increase: float | None = None  # a fraction: 0.15 blocks a cost more than 15% above HEAD's
    latency_p95_max_ms: float | None = None
    min_improvement: float | None = None  # on the score the keep rule decided on
    no_new_failures: bool = False
    must_pass: tuple[str, ...] = ()  # test ids or assertion (grader) names

    @property
    def any(self) -> bool:
        values = [getattr(self, name) for name in self.__dataclass_fields__]
        return any(v is not None and v is not False and v != () for v in values)  # 0 is a limit, not "off"


@dataclass(frozen=True)
class Side:
    """One side of the comparison (HEAD or the candidate)."""

    objectives: Mapping[str, float]  # overall: correctness, cost, latency_p95, ... (absent when not measured)
    score: float  # what the keep rule decided on, oriented so that higher is better
    tests: Mapping[str, float]  # test id -> score
    assertions: Mapping[str, float]  # grader name -> mean score over the tests that have it


@dataclass(frozen=True)
class Blocked:
    gate: str  # the gate's name under `gates:`
    reason: str


def check(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    """The first gate the candidate fails, or None. `pass_at` is the score at which a test passes."""
    for gate in (_must_pass, _no_new_failures, _correctness_min, _cost, _latency, _min_improvement):
        blocked = gate(limits, head, cand, pass_at)
        if blocked:
            return blocked
    return None


def _must_pass(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    for name in limits.must_pass:
        for kind, before, after in (("test", head.tests, cand.tests), ("assertion", head.assertions, cand.assertions)):
            if name in before and after.get(name, float("-inf")) < before[name]:
                now = f"{after[name]:.3g}" if name in after else "missing"
                return Blocked(SAFETY, f"{kind} {name!r} regressed: {before[name]:.3g} -> {now}")
    return None


def _no_new_failures(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    if not limits.no_new_failures:
        return None
    failing = [t for t, s in head.tests.items() if s >= pass_at and t in cand.tests and cand.tests[t] < pass_at]
    if failing:
        more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
        return Blocked("no_new_failures", f"test {failing[0]!r} passed at HEAD and fails now{more}")
    return None


def _correctness_min(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    floor, value = limits.correctness_min, cand.objectives.get("correctness")
    if floor is not None and value is not None and value < floor:
        return Blocked("correctness_min", f"correctness {value:.4g} < {floor:g}")
    return None


def _cost(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    most, before, after = limits.max_cost_increase, head.objectives.get("cost"), cand.objectives.get("cost")
    if most is None or before is None or after is None:
        return None
    cap = before * (1 + most)
    if after <= cap or math.isclose(after, cap, rel_tol=1e-9):  # +15% of $0.10 is $0.115, not 0.11499999999999999
        return None
    rise = f"+{(after - before) / before:.0%}" if before > 0 else "from 0"
    return Blocked("max_cost_increase", f"cost ${before:.4g} -> ${after:.4g} ({rise} > +{most:.0%})")


def _latency(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    cap, p95 = limits.latency_p95_max_ms, cand.objectives.get("latency_p95")
    if cap is not None and p95 is not None and p95 > cap:
        return Blocked("latency_p95_max_ms", f"latency p95 {p95:.0f} ms > {cap:g} ms")
    return None


def _min_improvement(limits: Limits, head: Side, cand: Side, pass_at: float) -> Blocked | None:
    least = limits.min_improvement
    if least is not None and cand.score - head.score < least:
        return Blocked("min_improvement", f"improvement {cand.score - head.score:+.4g} < {least:g}")
    return None
