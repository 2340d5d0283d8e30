"""The holdout guard's two decisions: which tests to hold out, and whether the holdout regressed.

Pure functions of numbers and a seed, so the split is the same every time an
experiment is resumed and both rules are tested with plain tables.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist


def split(scores: dict[str, float], fraction: float, seed: str) -> set[str]:
    """The held-out test ids: `fraction` of the passing and of the failing tests (a test passes at
    0.5 or more), drawn with `seed`, at least one test left on each side when there are two or more."""
    held: set[str] = set()
    rng = random.Random(seed)
    for stratum in (sorted(t for t, s in scores.items() if s >= 0.5), sorted(t for t, s in scores.items() if s < 0.5)):
        held.update(rng.sample(stratum, round(len(stratum) * fraction)))
    if len(scores) >= 2 and len(held) == len(scores):
        held.discard(sorted(held)[0])
    if len(scores) >= 2 and not held and fraction > 0:
        held.add(sorted(scores)[0])
    return held


def regressed(baseline: dict[str, float], candidate: dict[str, float], confidence: float) -> tuple[bool, float | None]:
    """(regressed, z): a one-sided paired z-test on the per-test differences of the held-out tests.

    With identical differences (a deterministic eval) there is no spread to test with: any drop
    of the mean is a regression.
    """
    deltas = [candidate[t] - baseline[t] for t in baseline if t in candidate]
    if not deltas:
        return False, None
    mean = sum(deltas) / len(deltas)
    if len(deltas) < 2:
        return mean < 0, None
    sd = math.sqrt(sum((d - mean) ** 2 for d in deltas) / (len(deltas) - 1))
    if sd < 1e-12:  # equal differences, up to float rounding
        return mean < 0, None
    z = mean / (sd / math.sqrt(len(deltas)))
    return z <= -NormalDist().inv_cdf(confidence), z
