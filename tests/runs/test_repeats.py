"""`eval.repeat` for command evals: N invocations, each in its own sample directory, merged into one index."""

from __future__ import annotations

import json

import pytest

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators.registry import build
from autoresearch.runs.results import assertion_rates, load_rows
from autoresearch.runs.samples import merge

# each invocation scores test `a` by its sample number, and `b` always 1
EVAL = (
    "import json, sys, pathlib\n"
    "d = pathlib.Path(sys.argv[1]); n = int(d.name.split('-')[1])\n"
    "rows = [{'test_id': 'a', 'score': n / 10, 'cost_usd': 0.5}, {'test_id': 'b', 'score': 1.0}]\n"
    "(d / 'index.jsonl').write_text(''.join(json.dumps(r) + '\\n' for r in rows))\n"
)


def test_command_eval_repeat_runs_n_times_into_sample_dirs_and_merges_means_with_samples(tmp_path):
    (tmp_path / "score.py").write_text(EVAL)
    evaluator = build(EvalConfig(command="python3 score.py {run_dir}", repeat=3), tmp_path)
    outcome = evaluator.run(tmp_path / "run")
    assert sorted(p.name for p in (tmp_path / "run").iterdir() if p.is_dir()) == ["sample-1", "sample-2", "sample-3"]
    rows = {r["test_id"]: r for r in load_rows(tmp_path / "run")}
    assert rows["a"]["samples"] == [0.1, 0.2, 0.3] and abs(rows["a"]["score"] - 0.2) < 1e-12
    assert rows["b"]["samples"] == [1.0, 1.0, 1.0] and rows["b"]["score"] == 1.0
    assert outcome.cost_usd == 1.5 and rows["a"]["cost_usd"] == 1.5


def test_merge_keeps_test_order_and_averages_only_the_samples_a_test_has():
    merged = merge([[{"test_id": "x", "score": 1}, {"test_id": "y", "score": 0}], [{"test_id": "y", "score": 1}]])
    assert [(r["test_id"], r["score"], r["samples"]) for r in merged] == [("x", 1.0, [1.0]), ("y", 0.5, [0.0, 1.0])]
    assert json.dumps(merged)  # plain JSON, as index.jsonl needs


def test_repeat_averages_each_graders_score_over_the_samples_so_pass_rates_count_every_sample():
    def sample(a_check: float, style: float) -> list[dict]:
        graders = [
            {"name": "check", "type": "contains", "score": a_check},
            {"name": "style", "type": "llm-grader", "score": style},
        ]
        return [{"test_id": "a", "score": (a_check + style) / 2, "scores": graders}]

    merged = merge([sample(1.0, 0.0), sample(0.0, 0.0), sample(1.0, 1.0)])
    graders = {g["name"]: g["score"] for g in merged[0]["scores"]}
    assert graders["check"] == pytest.approx(2 / 3) and graders["style"] == pytest.approx(1 / 3)
    assert assertion_rates(merged) == pytest.approx({"check": 2 / 3, "style": 1 / 3})


def test_repeat_on_a_command_eval_records_pass_rates_over_every_sample(tmp_path):
    script = EVAL.replace(
        "{'test_id': 'a', 'score': n / 10, 'cost_usd': 0.5}",
        "{'test_id': 'a', 'score': n / 10, 'scores': [{'name': 'g', 'score': n / 10}]}",
    )
    (tmp_path / "score.py").write_text(script)
    outcome = build(EvalConfig(command="python3 score.py {run_dir}", repeat=3), tmp_path).run(tmp_path / "run")
    assert assertion_rates(outcome.rows)["g"] == pytest.approx(0.2)
    assert assertion_rates(load_rows(tmp_path / "run"))["g"] == pytest.approx(0.2)
