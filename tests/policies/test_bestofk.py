"""The best-of-K correction for `significant`: its error rates, measured by simulation.

A cycle draws K candidates and HEAD from a landscape of tests with per-test
baselines and Gaussian run noise, and runs each candidate's sequential test
(the real `significant` rule) on HEAD's shared runs, as a K-candidate cycle
does: every undecided candidate asks for its next run, one HEAD run serves all
of them. The best kept candidate is the cycle's KEEP. Seeds are fixed, so the
rates below are the same on every run.
"""

from __future__ import annotations

import math
import random

import pytest

from autoresearch.policies.bestofk import adjusted_confidence, best_kept, family_false_keep
from autoresearch.policies.significant import Runs, Verdict, significant

CONFIDENCE = 0.95
MAX_REPEATS = 5
TESTS = 8
NOISE = 0.15
CYCLES = 1500
EFFECT = 0.08  # a helpful candidate's true gain on every test: about half a noise sd


def _run(rng: random.Random, baseline: list[float], effect: float) -> dict[str, float]:
    return {f"t{i}": base + effect + rng.gauss(0, NOISE) for i, base in enumerate(baseline)}


def _cycle(rng: random.Random, effects: list[float], confidence: float) -> int | None:
    """One cycle of len(effects) candidates; the index of the kept one, or None."""
    baseline = [rng.uniform(0.3, 0.7) for _ in range(TESTS)]
    head: Runs = [_run(rng, baseline, 0.0) for _ in range(2)]
    cands: list[Runs] = [[_run(rng, baseline, e)] for e in effects]
    done: dict[int, Verdict] = {}
    while len(done) < len(cands):
        wants_head = False
        for i, runs in enumerate(cands):
            if i in done:
                continue
            verdict = significant(runs, head, confidence, MAX_REPEATS, simpler=False)
            if verdict.done:
                done[i] = verdict
            elif verdict.action == "more-candidate":
                runs.append(_run(rng, baseline, effects[i]))
            else:
                wants_head = True
        if wants_head:
            head.append(_run(rng, baseline, 0.0))
    return best_kept([done[i] for i in range(len(cands))])


def _keep_rate(seed: int, effects: list[float], confidence: float) -> float:
    rng = random.Random(seed)
    return sum(_cycle(rng, effects, confidence) is not None for _ in range(CYCLES)) / CYCLES


def _margin(rate: float) -> float:
    """Three binomial standard errors of a rate measured over CYCLES cycles."""
    return 3 * math.sqrt(rate * (1 - rate) / CYCLES)


def test_k1_is_the_plain_rule() -> None:
    assert adjusted_confidence(0.95, 1) == 0.95


def test_sidak_level_restores_the_family_rate() -> None:
    for k in (2, 3, 4, 8):
        assert family_false_keep(adjusted_confidence(0.9, k), k) == pytest.approx(0.1)


@pytest.mark.parametrize("k, confidence", [(0, 0.95), (2, 1.0), (2, 0.0)])
def test_out_of_range_is_refused(k: int, confidence: float) -> None:
    with pytest.raises(ValueError):
        adjusted_confidence(confidence, k)


def test_best_kept_takes_the_largest_delta_among_the_kept() -> None:
    verdicts = [
        Verdict("keep", "", delta=0.1),
        Verdict("discard", "", delta=0.5),
        Verdict("keep", "", delta=0.3),
        Verdict("keep", "", delta=0.3),
    ]
    assert best_kept(verdicts) == 2
    assert best_kept([Verdict("discard", "")]) is None


@pytest.mark.parametrize("k", [1, 2, 4])
def test_null_landscape_false_keep_rate_stays_at_the_configured_level(k: int) -> None:
    alpha = 1 - CONFIDENCE
    rate = _keep_rate(100 + k, [0.0] * k, adjusted_confidence(CONFIDENCE, k))
    assert rate <= alpha + _margin(alpha), f"K={k}: false-KEEP rate {rate:.3f} above {alpha}"


def test_without_the_correction_best_of_4_keeps_null_edits_too_often() -> None:
    """The check above can fail: the uncorrected best of 4 exceeds the level."""
    alpha = 1 - CONFIDENCE
    rate = _keep_rate(104, [0.0] * 4, CONFIDENCE)
    assert rate > alpha + _margin(alpha), f"uncorrected K=4 rate {rate:.3f}"


@pytest.mark.parametrize("k, at_least", [(1, 0.68), (2, 0.6), (4, 0.5)])
def test_power_for_one_helpful_candidate_among_k(k: int, at_least: float) -> None:
    """One candidate helps by EFFECT, the others change nothing: how often the cycle keeps the helpful one.

    The figures (README, "Parallel candidates"): power 0.76 at K=1, 0.69 at K=2, 0.58 at K=4.
    """
    rng = random.Random(200 + k)
    effects = [EFFECT] + [0.0] * (k - 1)
    kept = [_cycle(rng, effects, adjusted_confidence(CONFIDENCE, k)) for _ in range(CYCLES // 3)]
    power = kept.count(0) / len(kept)
    assert power >= at_least
