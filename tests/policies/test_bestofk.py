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

from autoresearch.policies.bestofk import adjusted_confidence, best_kept, family_false_keep, look
from autoresearch.policies.significant import Runs, Verdict, significant

CONFIDENCE = 0.95
MAX_REPEATS = 5
TESTS = 8
NOISE = 0.15
CYCLES = 1500
EFFECT = 0.08  # a helpful candidate's true gain on every test: about half a noise sd


def _run(rng: random.Random, baseline: list[float], effect: float) -> dict[str, float]:
    return {f"t{i}": base + effect + rng.gauss(0, NOISE) for i, base in enumerate(baseline)}


def _cycle(rng: random.Random, effects: list[float], k: int | None, confidence: float = CONFIDENCE) -> int | None:
    """One cycle of len(effects) candidates; the index of the kept one, or None. `k` None: no correction."""
    baseline = [rng.uniform(0.3, 0.7) for _ in range(TESTS)]
    head: Runs = [_run(rng, baseline, 0.0) for _ in range(2)]
    cands: list[Runs] = [[_run(rng, baseline, e)] for e in effects]
    verdicts: list[Verdict | None] = [None] * len(cands)
    simpler = [False] * len(cands)
    while True:
        if k is None:  # the plain level for every candidate: what the correction replaces
            verdicts = [
                v if v and v.done else significant(c, head, confidence, MAX_REPEATS, False)
                for c, v in zip(cands, verdicts)
            ]
        else:
            verdicts = look(cands, head, verdicts, confidence, MAX_REPEATS, simpler, k)
        if all(v.done for v in verdicts):
            return best_kept(verdicts)
        for i, v in enumerate(verdicts):
            if v.action == "more-candidate":
                cands[i].append(_run(rng, baseline, effects[i]))
        if any(v.action == "more-head" for v in verdicts):
            head.append(_run(rng, baseline, 0.0))


def _keep_rate(seed: int, effects: list[float], k: int | None) -> float:
    rng = random.Random(seed)
    return sum(_cycle(rng, effects, k) is not None for _ in range(CYCLES)) / CYCLES


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
    rate = _keep_rate(100 + k, [0.0] * k, k)
    assert rate <= alpha + _margin(alpha), f"K={k}: false-KEEP rate {rate:.3f} above {alpha}"


def test_without_the_correction_best_of_4_keeps_null_edits_too_often() -> None:
    """The check above can fail: the uncorrected best of 4 exceeds the level."""
    alpha = 1 - CONFIDENCE
    rate = _keep_rate(104, [0.0] * 4, None)
    assert rate > alpha + _margin(alpha), f"uncorrected K=4 rate {rate:.3f}"


@pytest.mark.parametrize("k, at_least", [(1, 0.68), (2, 0.6), (4, 0.5)])
def test_power_for_one_helpful_candidate_among_k(k: int, at_least: float) -> None:
    """One candidate helps by EFFECT, the others change nothing: how often the cycle keeps the helpful one.

    The figures (README, "Parallel candidates"): power 0.76 at K=1, 0.69 at K=2, 0.58 at K=4.
    """
    rng = random.Random(200 + k)
    effects = [EFFECT] + [0.0] * (k - 1)
    kept = [_cycle(rng, effects, k) for _ in range(CYCLES // 3)]
    power = kept.count(0) / len(kept)
    assert power >= at_least


def _tests(value: float) -> dict[str, float]:
    return {f"t{i}": value + i / 100 for i in range(10)}


def test_a_decided_candidate_is_not_reopened_by_its_siblings_head_runs():
    head, no = [_tests(0.5), _tests(0.52)], [False, False]
    decided = look([[_tests(0.9)], [_tests(0.51)]], head, [None, None], CONFIDENCE, 1, no)
    assert decided[0].action == "keep"
    later = head + [_tests(0.95)] * 3  # HEAD runs drawn for the sibling would now discard the first
    again = look([[_tests(0.9)], [_tests(0.51)]], later, decided, CONFIDENCE, 1, no)
    assert again[0] is decided[0]
    assert look([[_tests(0.9)], [_tests(0.51)]], later, [None, None], CONFIDENCE, 1, no)[0].action == "discard"


def test_a_merge_that_may_follow_is_counted_from_the_first_look():
    runs, head = [[_tests(0.8)]], [_tests(0.5), _tests(0.52)]
    alone = look(runs, head, [None], CONFIDENCE, 1, [False])[0]
    with_merge = look(runs, head, [None], CONFIDENCE, 1, [False], k=2)[0]
    boundary = [float(v.reason.rsplit(">= ", 1)[1]) for v in (alone, with_merge)]
    assert boundary[0] < boundary[1]  # counted as two tests: a stricter keep boundary
