"""What an eval target's model costs: `eval.prices` prices it, an unpriced one is said to cost $0
(pointing at `eval.prices`), and a budget refuses an unpriced target or LLM grader before anything runs."""

from __future__ import annotations

import logging
import sys

import pytest
import yaml

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator
from tests.helpers.fake_llm import FakeLLM, text_reply
from tests.helpers.repos import assert_one_line_error, cli, make_repo
from tests.helpers.scenario import MUTATOR

TESTS = {"tests": [{"id": "q", "input": "Capital of France?", "assertions": [{"type": "equals", "value": "Paris"}]}]}


@pytest.fixture
def llm(monkeypatch):
    monkeypatch.setenv("FAKE_KEY", "fake-key")
    with FakeLLM() as server:
        server.handler = lambda req: text_reply("Paris", input_tokens=2_000_000, output_tokens=1_000_000)
        yield server


def bot(llm, model: str, **extra) -> dict:
    return {
        "name": "bot",
        "provider": "openai",
        "model": model,
        "api_key": "${{ FAKE_KEY }}",
        "base_url": llm.base_url("openai"),
        **extra,
    }


def evaluator(tmp_path, monkeypatch, llm, model: str, prices: dict | None = None) -> BuiltinEvaluator:
    monkeypatch.setenv("TARGET_MODEL", model)
    (tmp_path / "suite.eval.yaml").write_text(yaml.safe_dump({"execution": {"target": "bot"}, **TESTS}))
    config = EvalConfig(file="suite.eval.yaml", targets=[bot(llm, "${{ TARGET_MODEL }}")], prices=prices or {})
    return BuiltinEvaluator(config, tmp_path)


def test_eval_prices_price_a_target_model_the_shipped_table_lacks(tmp_path, monkeypatch, llm):
    prices = {"house-model-priced": {"input_per_mtok": 1.5, "output_per_mtok": 4}}
    outcome = evaluator(tmp_path, monkeypatch, llm, "house-model-priced", prices).run(tmp_path / "out")
    assert outcome.rows[0]["cost_usd"] == pytest.approx(2 * 1.5 + 1 * 4)
    assert outcome.cost_usd == pytest.approx(7.0)


def test_an_unpriced_target_counts_as_0_and_the_warning_points_at_eval_prices(tmp_path, monkeypatch, llm, caplog):
    caplog.set_level(logging.WARNING)
    outcome = evaluator(tmp_path, monkeypatch, llm, "house-model-unpriced").run(tmp_path / "out")
    assert outcome.cost_usd == 0
    warnings = [r.getMessage() for r in caplog.records if "house-model-unpriced" in r.getMessage()]
    assert len(warnings) == 1 and "eval.prices" in warnings[0] and "mutator.prices" not in warnings[0]


def repo_with_targets(tmp_path, targets: list[dict], stop: dict, eval_extra: dict | None = None):
    settings = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {"file": "suite.eval.yaml", "targets": targets, **(eval_extra or {})},
        "mutator": {"provider": "command", "command": "python3 tools/mutate.py"},
        "stop": stop,
    }
    return make_repo(
        tmp_path / "r",
        {
            "prompt.md": "Answer briefly.\n",
            "suite.eval.yaml": yaml.safe_dump({"execution": {"target": "bot"}, **TESTS}),
            "tools/mutate.py": MUTATOR,
            "autoresearch.yaml": yaml.safe_dump(settings, sort_keys=False),
        },
    )


@pytest.mark.parametrize("budget", [{"stop": {"budget_usd": 5}}, {"eval": {"budget_usd": 5}}], ids=["stop", "eval"])
def test_a_budget_refuses_an_unpriced_eval_target_with_exit_30_and_writes_nothing(tmp_path, llm, budget):
    repo = repo_with_targets(tmp_path, [bot(llm, "${{ TARGET_MODEL }}")], budget.get("stop", {}), budget.get("eval"))
    done = cli(repo, "run", env={"TARGET_MODEL": "house-model-x"})
    assert_one_line_error(done, 30, "field 'eval.prices'", "'house-model-x'", "target 'bot'", "budget_usd")
    assert not (repo / ".autoresearch").exists() and llm.requests == []


def test_a_budget_refuses_an_unpriced_llm_grader_of_a_command_target(tmp_path, llm):
    # never run (refused first), but its program must exist or the preflight refuses that instead
    canned = {
        "name": "bot",
        "provider": "cli",
        "command": f"{sys.executable} tools/mutate.py {{OUTPUT_FILE}}",
        "grader_target": "judge",
    }
    judge = {**bot(llm, "${{ TARGET_MODEL }}"), "name": "judge"}
    repo = repo_with_targets(tmp_path, [canned, judge], {"budget_usd": 5})
    done = cli(repo, "run", env={"TARGET_MODEL": "house-judge"})
    assert_one_line_error(done, 30, "field 'eval.prices'", "'house-judge'", "target 'judge'")


def test_a_budget_runs_with_a_target_priced_under_eval_prices(tmp_path, llm):
    prices = {"house-model-y": {"input_per_mtok": 0.1, "output_per_mtok": 0.1}}
    repo = repo_with_targets(
        tmp_path, [bot(llm, "${{ TARGET_MODEL }}")], {"budget_usd": 5, "max_cycles": 1}, {"prices": prices}
    )
    done = cli(repo, "run", env={"TARGET_MODEL": "house-model-y"})
    assert done.returncode == 10, done.stderr  # one cycle, the original: no improvement
    assert len(llm.requests) == 1
