"""`policy.rule: significant`: KEEP only when the candidate is better than HEAD with stated confidence.

Numbers in, a verdict out. The evidence is one score per test per eval run,
for the candidate (k runs) and for HEAD (m runs that no KEEP selected). The
statistic is the mean over tests of the paired per-test difference of means,
d = mean_i(mean(cand_i) - mean(head_i)), divided by its standard error. The
variance of each test is pooled over the candidate's and HEAD's runs: under
the null hypothesis (the edit changed nothing) the two are draws of the same
distribution, so HEAD's accumulated runs make the estimate precise even when
the candidate has run once.

The test is sequential (a group-sequential z-test): after each candidate run
it keeps at an O'Brien-Fleming-shaped boundary z >= c * sqrt(K / k), which is
strict early and the plain one-sided quantile c at the last look K =
max_repeats, and it discards at a futility line that rises from 0 at the
first look to c / 2 at look K - 1 (and meets the keep boundary at K). Most
edits change nothing or make things worse; the futility line throws them out
after one or two runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

MIN_HEAD_RUNS = 2  # a pooled variance needs two runs of HEAD before the first look
HEAD_RUN_WEIGHT = 2  # a HEAD run also serves the next candidates, so it is worth more than a candidate run

Action = Literal["keep", "discard", "more-candidate", "more-head"]
Runs = list[dict[str, float]]  # one {test_id: score} per eval run


@dataclass(frozen=True)
class Verdict:
    action: Action
    reason: str
    delta: float = 0.0  # mean per-test difference, candidate - HEAD
    p_value: float = 1.0  # one-sided, at this look, for "the candidate is better"
    interval: tuple[float, float] = (0.0, 0.0)  # delta -/+ z(confidence) standard errors
    candidate_runs: int = 0
    head_runs: int = 0

    @property
    def done(self) -> bool:
        return self.action in ("keep", "discard")


def boundaries(confidence: float, max_repeats: int) -> tuple[list[float], list[float]]:
    """(keep boundary, discard boundary) on z at looks 1 … max_repeats."""
    c = NormalDist().inv_cdf(confidence)
    looks = range(1, max_repeats + 1)
    keep = [c * math.sqrt(max_repeats / k) for k in looks]
    discard = [c * (k - 1) / (2 * (max_repeats - 1)) if k < max_repeats else c for k in looks]
    return keep, discard


def paired_z(candidate: Runs, head: Runs) -> tuple[float, float, float]:
    """(delta, standard error, z) over the tests that both sides ran."""
    tests = [t for t in candidate[0] if all(t in r for r in head)]
    if not tests:
        return 0.0, 0.0, 0.0
    delta = variance = 0.0
    for test in tests:
        c = [r[test] for r in candidate if test in r]
        h = [r[test] for r in head]
        delta += sum(c) / len(c) - sum(h) / len(h)
        pooled = c + h
        mean = sum(pooled) / len(pooled)
        s2 = sum((x - mean) ** 2 for x in pooled) / (len(pooled) - 1)
        variance += s2 * (1 / len(c) + 1 / len(h))
    delta, se = delta / len(tests), math.sqrt(variance) / len(tests)
    if se == 0.0:
        return delta, 0.0, math.copysign(math.inf, delta) if delta else 0.0
    return delta, se, delta / se


def significant(candidate: Runs, head: Runs, confidence: float, max_repeats: int, simpler: bool) -> Verdict:
    """The next step: keep, discard, or which side needs another run.

    A simpler candidate (the tie-break) is kept unless it is significantly worse
    (z below minus the keep boundary) by the last look; it is never discarded for futility.
    """
    k, m = len(candidate), len(head)
    if m < MIN_HEAD_RUNS:
        return Verdict(
            "more-head", f"HEAD needs {MIN_HEAD_RUNS} runs not selected by a KEEP", candidate_runs=k, head_runs=m
        )
    delta, se, z = paired_z(candidate, head)
    c = NormalDist().inv_cdf(confidence)
    evidence: dict[str, Any] = dict(
        delta=delta,
        p_value=1 - NormalDist().cdf(z) if math.isfinite(z) else float(z < 0),
        interval=(delta - c * se, delta + c * se),
        candidate_runs=k,
        head_runs=m,
    )
    keep_at, discard_at = boundaries(confidence, max_repeats)
    look = min(k, max_repeats) - 1
    said = f"z {z:+.2f} after {k}+{m} runs"
    if z >= keep_at[look]:
        return Verdict("keep", f"better: {said} >= {keep_at[look]:.2f}", **evidence)
    if simpler and z <= -keep_at[look]:
        return Verdict("discard", f"simpler but worse: {said} <= {-keep_at[look]:.2f}", **evidence)
    if simpler and k >= max_repeats:
        return Verdict("keep", f"simpler and not significantly worse: {said}", **evidence)
    if not simpler and (z <= discard_at[look] or k >= max_repeats):
        return Verdict("discard", f"not better: {said} < {keep_at[look]:.2f}", **evidence)
    return Verdict("more-head" if wants_head(k, m) else "more-candidate", f"uncertain: {said}", **evidence)


def wants_head(k: int, m: int) -> bool:
    """Whether the test, still uncertain after k candidate and m HEAD runs, asks for a HEAD run next: the run
    that shrinks the error most (a HEAD run also serves the next candidates)."""
    return m < MIN_HEAD_RUNS or HEAD_RUN_WEIGHT / (m * (m + 1)) > 1 / (k * (k + 1))


def first_round(m: int, beside: bool) -> tuple[int, int]:
    """(candidate runs, HEAD runs) to draw before the first look, with m HEAD runs at hand: the candidate's
    first, and, for a caller that can run both sides at once, the HEAD runs the first look needs with it."""
    return 1, max(0, MIN_HEAD_RUNS - m) if beside else 0


def next_round(action: Action, k: int, m: int, beside: bool) -> tuple[int, int]:
    """(candidate runs, HEAD runs) to draw next, after k and m runs and a verdict asking for `action`: the run
    asked for and, for a caller that can run both sides at once (`beside`), the other side's too when the test
    would ask for it right after. Every look at k = 1, 2, … still happens, since a round adds at most one
    candidate run; a round drawn ahead costs at most one run that the look between would have made
    unneeded, and halves the wall time of a long test."""
    if action == "more-candidate":
        return 1, int(beside and wants_head(k + 1, m))
    return int(beside and not wants_head(k, m + 1)), 1
