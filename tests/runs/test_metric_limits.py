"""`latency` and `cost` graders fail a test over their limit (score 0), and pass one exactly at it."""

from __future__ import annotations

from tests.runs.test_graders import run, scores


def test_latency_and_cost_over_their_limits_score_zero(tmp_path):
    envelope = {"text": "done", "cost_usd": 0.02}
    checks = [
        {"type": "latency", "threshold": 0},  # no command answers in 0 ms
        {"type": "cost", "budget": 0.019},
        {"type": "cost", "budget": 0.02},  # at the limit is within it
    ]
    rows = run(tmp_path, [{"id": "m", "input": "x", "assertions": checks}], {"m": envelope})
    assert scores(rows["m"]) == [0.0, 0.0, 1.0]
    assert [a["passed"] for a in rows["m"]["assertions"]] == [False, False, True]
    assert rows["m"]["assertions"][1]["text"] == "Cost $0.0200 > $0.0190 budget"
    assert rows["m"]["execution_status"] == "quality_failure"
