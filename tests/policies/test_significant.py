"""The significant rule as tables, and its error rates on simulated noisy evals (seeded, pure, fast)."""

from __future__ import annotations

import random

import pytest

from autoresearch.policies.significant import boundaries, significant

TESTS = [f"t{i}" for i in range(20)]
PASS_RATES = [0.05 + 0.9 * i / 19 for i in range(20)]  # binary tests between 0.05 and 0.95


def runs(*scores: list[float]) -> list[dict[str, float]]:
    return [dict(zip(TESTS, s)) for s in scores]


def test_boundaries_are_strict_early_and_meet_at_the_last_look():
    keep, discard = boundaries(0.95, 5)
    assert keep[0] > keep[1] > keep[2] > keep[3] > keep[4] == pytest.approx(1.6449, abs=1e-4)
    assert discard[0] == 0.0 and discard[:4] == sorted(discard[:4]) and discard[4] == keep[4]
    assert boundaries(0.95, 1) == ([pytest.approx(1.6449, abs=1e-4)], [pytest.approx(1.6449, abs=1e-4)])


def test_asks_for_head_runs_before_the_first_look():
    v = significant(runs([1] * 20), runs([0] * 20), 0.95, 5, simpler=False)
    assert v.action == "more-head" and v.head_runs == 1


def test_a_clear_win_stops_at_the_first_run():
    head = runs([0] * 10 + [1] * 10, [0] * 10 + [1] * 10)
    v = significant(runs([1] * 20), head, 0.95, 5, simpler=False)
    assert v.action == "keep" and v.candidate_runs == 1 and v.delta == 0.5 and v.p_value < 1e-4


def test_a_clear_loss_stops_at_the_first_run():
    head = runs([1] * 20, [1] * 20)
    v = significant(runs([1] * 10 + [0] * 10), head, 0.95, 5, simpler=False)
    assert v.action == "discard" and v.delta == -0.5 and v.interval[1] < 0


def test_an_uncertain_gain_asks_for_more_then_decides_at_max_repeats():
    head = runs(*([0, 1] * 10 for _ in range(4)))
    cand = runs([1, 1] + [0, 1] * 9)
    v = significant(cand, head, 0.95, 5, simpler=False)
    assert v.action in ("more-candidate", "more-head") and 0 < v.delta < 0.2
    final = significant(cand * 5, head * 3, 0.95, 5, simpler=False)
    assert final.action in ("keep", "discard") and final.candidate_runs == 5


def test_head_runs_are_asked_for_while_they_shrink_the_error_most():
    head = runs(*([0, 1] * 10 for _ in range(2)))
    cand = runs([1, 1] + [0, 1] * 9, [0, 1] * 10)
    assert significant(cand, head, 0.95, 5, simpler=False).action == "more-head"  # 2 HEAD runs for 2 candidate runs
    assert significant(cand, head * 2, 0.95, 5, simpler=False).action == "more-candidate"


def test_simpler_is_kept_at_the_end_unless_significantly_worse():
    head = runs(*([0, 1] * 10 for _ in range(6)))
    same = runs(*([0, 1] * 10 for _ in range(5)))
    assert significant(same[:1], head, 0.95, 5, simpler=True).action.startswith("more")
    assert significant(same, head, 0.95, 5, simpler=True).action == "keep"
    assert significant(same, head, 0.95, 5, simpler=False).action == "discard"
    worse = runs(*([0, 0] * 10 for _ in range(2)))
    assert significant(worse, head, 0.95, 5, simpler=True).action == "discard"


def test_deterministic_scores_decide_without_noise():
    head = runs([0] * 20, [0] * 20)
    assert significant(runs([0] * 20), head, 0.95, 5, simpler=False).action == "discard"  # no change at all


def decide(rng: random.Random, shift: float, head_runs: list, confidence=0.95, max_repeats=5) -> tuple[bool, int]:
    """Drive the rule as the loop does; returns (kept, eval runs spent)."""
    draw = lambda rates: {t: float(rng.random() < p) for t, p in zip(TESTS, rates)}  # noqa: E731
    cand_rates = [min(1.0, max(0.0, p + shift)) for p in PASS_RATES]
    cand, spent = [draw(cand_rates)], 1
    while True:
        v = significant(cand, head_runs, confidence, max_repeats, simpler=False)
        if v.done:
            return v.action == "keep", spent
        (head_runs if v.action == "more-head" else cand).append(
            draw(PASS_RATES if v.action == "more-head" else cand_rates)
        )
        spent += 1


@pytest.mark.parametrize("shift, at_most, at_least", [(0.0, 0.05, 0.0), (-0.05, 0.02, 0.0), (0.10, 1.0, 0.40)])
def test_error_rates_on_twenty_binary_tests(shift, at_most, at_least):
    """Every 10th decision starts from a HEAD with no runs (as after a KEEP); between, HEAD's runs accumulate."""
    rng = random.Random(7)
    kept = spent = 0
    n, head = 2000, []
    for i in range(n):
        if i % 10 == 0:
            head = []
        k, s = decide(rng, shift, head)
        kept, spent = kept + k, spent + s
    assert at_least <= kept / n <= at_most
    assert spent / n <= 4.0
