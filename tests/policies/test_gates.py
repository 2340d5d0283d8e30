"""The promotion gates, as tables: which gate blocks, in which order, with which reason."""

from __future__ import annotations

import pytest

from autoresearch.policies.gates import Limits, Side, check

HEAD = Side(
    objectives={"correctness": 0.7, "cost": 0.10, "latency_p95": 900},
    score=0.7,
    tests={"a": 1.0, "b": 0.9, "c": 0.2},
    assertions={"safe": 1.0, "style": 0.5},
)


def cand(**changes) -> Side:
    fields = {"objectives": HEAD.objectives, "score": 0.8, "tests": HEAD.tests, "assertions": HEAD.assertions}
    return Side(**{**fields, **changes})


@pytest.mark.parametrize(
    ("limits", "candidate", "gate", "reason"),
    [
        (Limits(), cand(), None, None),
        (
            Limits(correctness_min=0.75),
            cand(objectives={"correctness": 0.74}),
            "correctness_min",
            "correctness 0.74 < 0.75",
        ),
        (Limits(correctness_min=0.75), cand(objectives={"correctness": 0.75}), None, None),
        (Limits(max_cost_increase=0.15), cand(objectives={"cost": 0.115}), None, None),
        (
            Limits(max_cost_increase=0.15),
            cand(objectives={"cost": 0.12}),
            "max_cost_increase",
            "cost $0.1 -> $0.12 (+20% > +15%)",
        ),
        (Limits(max_cost_increase=0.15), cand(objectives={}), None, None),  # not measured: never blocks
        (
            Limits(latency_p95_max_ms=1000),
            cand(objectives={"latency_p95": 1200}),
            "latency_p95_max_ms",
            "latency p95 1200 ms > 1000 ms",
        ),
        (Limits(min_improvement=0.2), cand(score=0.85), "min_improvement", "improvement +0.15 < 0.2"),
        (Limits(min_improvement=0.1), cand(score=0.85), None, None),
        (
            Limits(no_new_failures=True),
            cand(tests={"a": 1.0, "b": 0.5, "c": 0.9}),
            "no_new_failures",
            "test 'b' passed at HEAD and fails now",
        ),
        (Limits(no_new_failures=True), cand(tests={"a": 0.8, "b": 0.8, "c": 0.0}), None, None),
        (
            Limits(must_pass=("a",)),
            cand(tests={"a": 0.99, "b": 1.0, "c": 1.0}),
            "must_pass",
            "test 'a' regressed: 1 -> 0.99",
        ),
        (Limits(must_pass=("a",)), cand(tests={"b": 1.0}), "must_pass", "test 'a' regressed: 1 -> missing"),
        (
            Limits(must_pass=("safe",)),
            cand(assertions={"safe": 0.9}),
            "must_pass",
            "assertion 'safe' regressed: 1 -> 0.9",
        ),
        (Limits(must_pass=("style", "unknown")), cand(assertions={"safe": 0.0, "style": 0.6}), None, None),
    ],
)
def test_each_gate(limits, candidate, gate, reason):
    blocked = check(limits, HEAD, candidate, pass_at=0.8)
    assert (blocked.gate, blocked.reason) == (gate, reason) if blocked else gate is None


def test_the_safety_gate_is_reported_first_when_several_block():
    limits = Limits(correctness_min=0.9, max_cost_increase=0.0, must_pass=("b",))
    both = cand(objectives={"correctness": 0.5, "cost": 1.0}, tests={"a": 1.0, "b": 0.0, "c": 0.2})
    assert check(limits, HEAD, both, pass_at=0.8).gate == "must_pass"


def test_limits_any_says_whether_a_gate_is_set():
    assert not Limits().any
    assert Limits(no_new_failures=True).any and Limits(must_pass=("x",)).any and Limits(correctness_min=0).any
