"""The composite score, as tables: normalisation against HEAD and the weights' checks."""

from __future__ import annotations

import pytest

from autoresearch.policies.objectives import composite, normalise, weights_problem


@pytest.mark.parametrize(
    ("name", "value", "head", "expected"),
    [
        ("correctness", 0.7, 0.2, 0.7),  # as it is, whatever HEAD scored
        ("cost", 1.0, 1.0, 0.5),  # HEAD's own value
        ("cost", 0.5, 1.0, 2 / 3),  # half the cost
        ("cost", 2.0, 1.0, 1 / 3),  # twice the cost
        ("latency", 0.0, 120.0, 1.0),  # instant
        ("cost", 0.3, 0.0, 0.0),  # something where HEAD spent nothing
        ("cost", 0.0, 0.0, 0.5),
        ("robustness", 1.0, 0.5, 2 / 3),  # higher is better: candidate / HEAD
        ("robustness", 0.0, 0.5, 0.0),
        ("tool_calls", None, 4.0, 0.5),  # not measured on one side: unchanged
        ("tokens", 10.0, None, 0.5),
        ("latency", -5.0, 5.0, 0.5),  # a negative measurement measures nothing
        ("cost", 1e-300, 1e300, 1.0),  # no overflow to inf / inf
        ("cost", 1e300, 1e-300, 0.0),
    ],
)
def test_normalise(name, value, head, expected):
    assert normalise(name, value, head) == pytest.approx(expected)


def test_normalise_is_symmetric_in_the_log_of_the_ratio():
    assert normalise("size", 10, 30) - 0.5 == pytest.approx(0.5 - normalise("size", 90, 30))


def test_composite_is_the_weighted_mean_of_the_normalised_objectives():
    weights = {"correctness": 0.45, "tool_calls": 0.15, "robustness": 0.15, "cost": 0.15, "latency": 0.10}
    head = {"correctness": 0.8, "tool_calls": 10, "robustness": 0.5, "cost": 0.02, "latency": 1000}
    assert composite(weights, head, head) == pytest.approx(0.45 * 0.8 + 0.55 * 0.5)
    cheaper = {**head, "cost": 0.01}
    assert composite(weights, cheaper, head) == pytest.approx(0.45 * 0.8 + 0.40 * 0.5 + 0.15 * 2 / 3)
    assert composite({"correctness": 2, "cost": 2}, cheaper, head) == pytest.approx((0.8 + 2 / 3) / 2)


@pytest.mark.parametrize(
    ("weights", "problem"),
    [
        ({}, None),
        ({"correctness": 1, "cost": 0}, None),
        ({"speed": 1}, ("objectives.speed", "unknown objective (known: correctness, cost")),
        ({"cost": -0.1}, ("objectives.cost", "-0.1 is negative")),
        ({"cost": True}, ("objectives.cost", "True is not a number")),
        ({"cost": float("nan")}, ("objectives.cost", "nan is not a number")),
        ({"correctness": 0, "cost": 0.0}, ("objectives", "the weights sum to 0")),
        ({"correctness": 1e308, "cost": 1e308}, ("objectives", "the weights sum to more than a number holds")),
    ],
)
def test_weights_problem(weights, problem):
    found = weights_problem(weights)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found[0] == problem[0] and found[1].startswith(problem[1])
