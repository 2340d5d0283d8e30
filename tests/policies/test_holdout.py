"""The holdout split and the holdout regression test, as tables."""

from __future__ import annotations

import random

import pytest

from autoresearch.policies.holdout import regressed, split


def test_the_split_is_seeded_stratified_and_stable():
    scores = {f"pass{i}": 1.0 for i in range(10)} | {f"fail{i}": 0.0 for i in range(10)}
    held = split(scores, 0.3, "exp")
    assert held == split(dict(reversed(scores.items())), 0.3, "exp")  # same every resume
    assert sum(t.startswith("pass") for t in held) == 3 and sum(t.startswith("fail") for t in held) == 3
    assert split(scores, 0.3, "other") != held


@pytest.mark.parametrize(
    "scores, fraction, size", [({"a": 1.0}, 0.3, 0), ({"a": 1.0, "b": 0.0}, 0.9, 1), ({"a": 1, "b": 1}, 0.1, 1)]
)
def test_both_sides_keep_a_test_when_they_can(scores, fraction, size):
    assert len(split(scores, fraction, "s")) == size


def test_a_clear_holdout_drop_is_a_regression_and_noise_is_not():
    base = {f"t{i}": 0.8 for i in range(8)}
    assert regressed(base, {t: 0.4 for t in base}, 0.95) == (True, None)  # every test fell by the same
    noisy = random.Random(1)
    candidate = {t: 0.8 + noisy.choice([-0.1, 0.1]) for t in base}
    assert regressed(base, candidate, 0.95)[0] is False
    worse = {t: 0.8 - 0.3 + noisy.uniform(-0.05, 0.05) for t in base}
    is_worse, z = regressed(base, worse, 0.95)
    assert is_worse and z < -1.645


def test_no_shared_tests_is_no_regression():
    assert regressed({"a": 1.0}, {"b": 0.0}, 0.95) == (False, None)
