"""The keep rules as tables: numbers in, decision out."""

from __future__ import annotations

import pytest

from autoresearch.policies.keep import RULES, Evidence, Rule, swapped


def ev(wins=0, losses=0, mean_delta=0.0, base=0.5, cand=0.5, base_size=10, cand_size=10, goal="maximize"):
    return Evidence(wins, losses, 0, mean_delta, base, cand, base_size, cand_size, goal)


@pytest.mark.parametrize(
    "evidence, keep",
    [
        (ev(wins=2, losses=1, mean_delta=0.05), True),
        (ev(wins=1, losses=1, mean_delta=0.2), False),  # more mean, but not more wins
        (ev(wins=0, losses=0, mean_delta=0.0, cand_size=9), True),  # tie-break: simpler
        (ev(wins=0, losses=0, mean_delta=0.0, cand_size=10), False),  # equal size is not simpler
        (ev(wins=1, losses=2, mean_delta=0.0, cand_size=1), True),  # AgentV: rounded mean 0 and simpler
        (ev(wins=0, losses=0, mean_delta=-0.001, cand_size=1), False),
    ],
)
def test_wins_losses(evidence, keep):
    assert RULES["wins-losses"](evidence).keep is keep


@pytest.mark.parametrize(
    "evidence, keep",
    [
        (ev(base=0.5, cand=0.51), True),
        (ev(base=0.5, cand=0.5), False),
        (ev(base=0.5, cand=0.5, cand_size=3), True),
        (ev(base=1.5, cand=1.4, goal="minimize"), True),
        (ev(base=1.5, cand=1.6, goal="minimize"), False),
    ],
)
def test_score(evidence, keep):
    assert RULES["score"](evidence).keep is keep


@pytest.mark.parametrize(
    "rule, evidence, beaten",
    [
        ("wins-losses", ev(wins=1, losses=2, mean_delta=-0.05), True),
        ("wins-losses", ev(wins=2, losses=2, mean_delta=-0.05), False),  # a tie is not a loss
        ("wins-losses", ev(wins=0, losses=0, cand_size=20), False),  # nor is a tie in a larger artifact
        ("wins-losses", ev(wins=3, losses=0, mean_delta=0.1), False),
        ("score", ev(base=0.5, cand=0.49), True),
        ("score", ev(base=0.5, cand=0.5, cand_size=20), False),
        ("score", ev(base=1.5, cand=1.6, goal="minimize"), True),
        ("score", ev(base=1.5, cand=1.4, goal="minimize"), False),
    ],
)
def test_the_swapped_comparison_keeps_the_baseline_only_when_the_candidate_lost_outright(rule, evidence, beaten):
    assert RULES[rule](swapped(evidence)).keep is beaten


def test_every_decision_gives_a_reason():
    for rule in (
        r for r in RULES.values() if not r.sequential
    ):  # a sequential rule decides from runs, not one comparison
        assert rule(ev(wins=1)).reason
        assert rule(ev()).reason


def test_every_configurable_rule_is_in_the_registry_and_says_how_it_decides():
    assert set(RULES) == {"wins-losses", "score", "significant"}
    assert [name for name, rule in RULES.items() if rule.sequential] == ["significant"]
    assert [name for name, rule in RULES.items() if rule.early_discard] == ["wins-losses"]
    # on one run, `significant` says only whether a candidate may be picked from several: by its score
    better = ev(base=0.5, cand=0.6)
    assert RULES["significant"](better) == RULES["score"](better) and RULES["significant"](better).keep
    assert not RULES["significant"](ev(base=0.5, cand=0.5)).keep
    with pytest.raises(ValueError):
        Rule(sequential=True)(ev())
