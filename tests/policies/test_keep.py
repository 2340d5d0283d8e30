"""The keep rules as tables: numbers in, decision out."""

from __future__ import annotations

import pytest

from autoresearch.policies.keep import RULES, Evidence, Rule


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
    "rule, evidence, lost",
    [
        ("wins-losses", ev(wins=0, losses=1), True),  # one test differs: one net loss is more than √1/2
        ("wins-losses", ev(wins=1, losses=2), True),  # 1 > √3/2
        ("wins-losses", ev(wins=2, losses=3), False),  # 1 <= √5/2: the noise of a tie
        ("wins-losses", ev(wins=2, losses=4), True),  # 2 > √6/2
        ("wins-losses", ev(wins=7, losses=9), False),  # 2 <= √16/2: more tests differ, more noise
        ("wins-losses", ev(wins=2, losses=2, mean_delta=-0.05), False),  # a tie is not a loss
        ("wins-losses", ev(wins=0, losses=0, cand_size=20), False),  # nor is a tie in a larger artifact
        ("wins-losses", ev(wins=3, losses=0, mean_delta=0.1), False),
        ("score", ev(base=0.5, cand=0.49), True),
        ("score", ev(base=0.5, cand=0.5, cand_size=20), False),
        ("score", ev(base=1.5, cand=1.6, goal="minimize"), True),
        ("score", ev(base=1.5, cand=1.4, goal="minimize"), False),
    ],
)
def test_a_second_run_is_vetoed_only_when_it_lost_beyond_a_ties_noise(rule, evidence, lost):
    assert RULES[rule].lost(evidence).keep is lost


def test_the_wins_losses_veto_says_by_how_much_against_which_margin():
    assert RULES["wins-losses"].lost(ev(wins=1, losses=4)).reason == "losses 4 - wins 1 = 3 > √5/2 = 1.12"
    assert RULES["wins-losses"].lost(ev(wins=2, losses=3)).reason == "losses 3 - wins 2 = 1 <= √5/2 = 1.12"


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
    with pytest.raises(ValueError):  # its pick is tested on its later runs, not vetoed
        RULES["significant"].lost(ev())
