"""The Pareto front of per-test winners, and the parents it gives a cycle's candidates (plain tables)."""

from __future__ import annotations

import pytest

from autoresearch.policies.pareto import HEAD, Member, assign, front


def names(members: list[Member]) -> list[str]:
    return [m.name for m in members]


def test_a_candidate_best_on_a_test_is_on_the_front_with_head():
    scores = {HEAD: {"a": 0.5, "b": 0.5, "c": 0.5}, "2-0": {"a": 1.0, "b": 0.0, "c": 0.5}}
    ranked = front(scores)
    assert ranked == [Member(HEAD, frozenset({"b", "c"})), Member("2-0", frozenset({"a", "c"}))]


def test_a_candidate_whose_won_tests_another_member_also_wins_is_off_the_front():
    scores = {
        HEAD: {"a": 0.5, "b": 0.5, "c": 0.5},
        "2-1": {"a": 0.5, "b": 0.5, "c": 0.0},  # wins b, as HEAD does, and c too: dominated by HEAD
        "2-2": {"a": 0.9, "b": 0.0, "c": 0.0},  # wins a
        "3-0": {"a": 0.9, "b": 0.0, "c": 0.1},  # wins a too, and is newer: it stays, 2-2 goes
    }
    assert names(front(scores)) == [HEAD, "3-0"]


def test_head_is_on_the_front_even_when_it_wins_no_test():
    scores = {HEAD: {"a": 0.1, "b": 0.1}, "2-0": {"a": 0.9, "b": 0.0}, "2-1": {"a": 0.0, "b": 0.9}}
    ranked = front(scores)
    assert ranked[0] == Member(HEAD, frozenset()) and names(ranked) == [HEAD, "2-1", "2-0"]  # newest first at a tie


def test_members_are_ranked_by_tests_won():
    scores = {
        HEAD: {"a": 0.5, "b": 0.5, "c": 0.5, "d": 0.5},
        "2-0": {"a": 0.9, "b": 0.9, "c": 0.0, "d": 0.0},
        "3-1": {"a": 0.0, "b": 0.0, "c": 0.9, "d": 0.0},
    }
    assert names(front(scores)) == [HEAD, "2-0", "3-1"]


def test_a_minimized_metric_counts_the_lowest_score_as_best():
    scores = {HEAD: {"loss": 2.0, "time": 1.0}, "2-0": {"loss": 1.5, "time": 3.0}}
    assert names(front(scores, higher_is_better=False)) == [HEAD, "2-0"]
    assert names(front(scores)) == [HEAD, "2-0"]  # and, maximized, 2-0 wins time instead: still on it


@pytest.mark.parametrize(
    "others, k, expected",
    [
        ([], 3, [HEAD, HEAD, HEAD]),
        (["2-0"], 1, [HEAD]),
        (["2-0"], 4, [HEAD, "2-0", HEAD, HEAD]),
        (["2-0", "3-1", "3-2"], 3, [HEAD, "2-0", "3-1"]),
    ],
)
def test_the_first_candidate_starts_from_head_the_others_from_the_ranked_front(others, k, expected):
    ranked = [Member(HEAD, frozenset()), *(Member(n, frozenset({n})) for n in others)]
    assert assign(ranked, k) == expected
