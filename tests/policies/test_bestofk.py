"""The best-of-K correction: K candidates that change nothing must not be kept more often than one.

Each simulated cycle draws K null candidates (the same score distribution as HEAD) and runs the
real sequential `significant` rule on each, as the loop does; the cycle is a false KEEP when any
of them is kept. Unadjusted, that rate grows with K; at `adjusted_confidence` it stays at 1 - c.
"""

from __future__ import annotations

import random

import pytest

from autoresearch.policies.bestofk import adjusted_confidence
from autoresearch.policies.significant import significant

TESTS = [f"t{i}" for i in range(8)]
CYCLES = 1500


def _run(rng: random.Random) -> dict[str, float]:
    return {t: min(1.0, max(0.0, rng.gauss(0.5, 0.2))) for t in TESTS}


def _kept(rng: random.Random, confidence: float) -> bool:
    cand, head = [_run(rng)], [_run(rng), _run(rng)]
    while True:
        verdict = significant(cand, head, confidence, 5, simpler=False)
        if verdict.done:
            return verdict.action == "keep"
        (cand if verdict.action == "more-candidate" else head).append(_run(rng))


def false_keep_rate(k: int, confidence: float, seed: int = 7) -> float:
    rng = random.Random(seed)
    return sum(any(_kept(rng, confidence) for _ in range(k)) for _ in range(CYCLES)) / CYCLES


def test_k1_is_left_as_it_is_and_larger_k_asks_for_more():
    assert adjusted_confidence(0.95, 1) == 0.95
    assert 0.95 < adjusted_confidence(0.95, 2) < adjusted_confidence(0.95, 4) < 1
    assert adjusted_confidence(0.95, 4) ** 4 == pytest.approx(0.95)


@pytest.mark.parametrize("confidence, k", [(0, 2), (1, 2), (0.9, 0)])
def test_nonsense_is_refused(confidence, k):
    with pytest.raises(ValueError):
        adjusted_confidence(confidence, k)


def test_the_false_keep_rate_per_cycle_stays_at_the_configured_level_for_k4():
    confidence = 0.9
    single = false_keep_rate(1, confidence)
    naive = false_keep_rate(4, confidence)
    adjusted = false_keep_rate(4, adjusted_confidence(confidence, 4))
    margin = 3 * (0.1 * 0.9 / CYCLES) ** 0.5  # three standard errors of a rate near 0.1
    assert naive > single + 2 * margin  # without the correction, four tries are four chances to be fooled
    assert adjusted <= max(single, 1 - confidence) + margin
