"""The objectives chart: one line per objective relative to the original, and a mark per gate-blocked candidate."""

from __future__ import annotations

import re

from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.objectives_chart import objectives_chart, trajectories
from autoresearch.trajectory.page import PageData, render


def line(cycle: int, decision: str = "keep", **fields) -> Iteration:
    return Iteration(cycle=cycle, score=0.5, decision=decision, **fields)


RECORDS = [
    line(1, objectives={"correctness": 0.5, "cost": 0.02, "latency_p95": 0.0}),
    line(
        2,
        "drop",
        objectives={"correctness": 0.9, "cost": 0.04, "latency_p95": 300.0},
        gate="max_cost_increase",
        reason="blocked by gate max_cost_increase: cost $0.02 -> $0.04 <script>",
    ),
    line(3, "error"),  # no objectives: no point
    line(4, objectives={"correctness": 0.6, "cost": 0.01, "latency_p95": 150.0}),
]


def test_each_objective_relative_to_its_first_non_zero_value():
    lines = dict(trajectories(RECORDS))
    assert lines["cost"] == [(1, 1.0, 0.02), (2, 2.0, 0.04), (4, 0.5, 0.01)]
    assert [rel for _, rel, _ in lines["latency_p95"]] == [0.0, 1.0, 0.5]
    assert [c for c, _, _ in lines["correctness"]] == [1, 2, 4]


def test_the_chart_draws_every_objective_and_marks_the_blocked_candidate_with_its_gate():
    svg = objectives_chart(RECORDS)
    assert svg is not None
    assert sorted(re.findall(r'data-objective="([^"]+)"', svg)) == ["correctness", "cost", "latency_p95"]
    assert re.findall(r'class="gated" data-cycle="(\d+)" data-gate="([^"]+)"', svg) == [("2", "max_cost_increase")]
    assert "cycle 2 · cost 0.04" in svg
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_a_history_without_objectives_has_no_chart_and_no_section():
    old = [line(1), line(2, "drop")]
    assert objectives_chart(old) is None
    assert "objectives-chart" not in render(PageData("exp", old))
    assert 'id="objectives-chart"' in render(PageData("exp", RECORDS))
