"""Reading the objectives from result rows: what each field means, and that an absent one stays absent."""

from __future__ import annotations

import pytest

from autoresearch.runs.objectives import of_row, overall, percentile
from autoresearch.runs.samples import merge


def test_a_row_with_every_measurement():
    row = {
        "test_id": "a",
        "score": 0.5,
        "cost_usd": 0.02,
        "duration_ms": 1500,
        "token_usage": {"input": 100, "output": 30, "cached": 999},
        "trace": {"event_count": 4, "tool_calls": {"read": 3, "grep": 1}},
    }
    assert of_row(row) == {"correctness": 0.5, "cost": 0.02, "latency": 1500, "tokens": 130, "tool_calls": 4}


def test_a_row_with_nothing_but_its_score_has_no_other_objective():
    assert of_row({"test_id": "a", "score": 1, "cost_usd": None, "duration_ms": True, "trace": "x"}) == {
        "correctness": 1.0
    }


def test_negative_measurements_are_absent_and_overflowing_sums_are_left_out():
    assert of_row({"test_id": "a", "score": 1, "duration_ms": -3, "token_usage": {"input": -1}}) == {"correctness": 1.0}
    rows = [{"test_id": t, "score": 1, "duration_ms": 1e308, "token_usage": {"input": 1e308}} for t in "ab"]
    assert overall(rows) == {"correctness": 1.0, "latency_p50": 1e308, "latency_p95": 1e308}


def test_tool_calls_from_agentv_camel_case_trace_summed_by_name():
    assert of_row({"test_id": "a", "score": 1, "trace": {"toolCalls": {"read": 2, "edit": 3}}})["tool_calls"] == 5


def test_robustness_is_the_pass_rate_across_repeats_and_merged_repeats_cost_one_runs_share():
    samples = [[{"test_id": "a", "score": s, "cost_usd": 0.01}] for s in (1.0, 0.9, 0.2, 0.0)]
    row = merge(samples)[0]
    assert of_row(row)["robustness"] == 0.5
    assert of_row(row)["cost"] == pytest.approx(0.01)


def test_a_built_in_runs_trials_are_one_run_whose_cost_is_the_whole():
    row = {"test_id": "a", "score": 1.0, "samples": [0.1, 1.0], "attempt_scores": [0.1, 1.0], "cost_usd": 0.04}
    assert of_row(row)["cost"] == 0.04 and of_row(row)["robustness"] == 0.5


def test_overall():
    rows = [
        {"test_id": t, "score": s, "cost_usd": 0.01, "duration_ms": d}
        for t, s, d in (("a", 1, 100), ("b", 0, 200), ("c", 0.5, 300), ("d", 0.5, 1000))
    ]
    assert overall(rows, size=12) == {
        "correctness": 0.5,
        "cost": 0.04,
        "latency_p50": 250,
        "latency_p95": 895,
        "size": 12,
    }
    assert overall([]) == {}


def test_percentile_interpolates_between_the_nearest_two():
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([0.0, 10.0], 0.5) == 5.0
    assert percentile([float(n) for n in range(1, 101)], 0.95) == pytest.approx(95.05)
