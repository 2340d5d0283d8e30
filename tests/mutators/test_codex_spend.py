"""Codex's spend and reply, read from what `codex exec --json` printed (captured from the real CLI, 0.171.0:
tests/mutators/codex-output/) and priced with the shipped table."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoresearch.mutators.codex_spend import CodexSpend, model_of, read
from autoresearch.mutators.config import CommandMutatorConfig

CAPTURED = Path(__file__).parent / "codex-output"
LINE = 'codex exec --json --dangerously-bypass-approvals-and-sandbox {} "$(cat $AUTORESEARCH_PROMPT_FILE)"'


def test_a_runs_usage_is_priced_with_its_cached_input_at_the_cached_rate():
    spend = read((CAPTURED / "exec-json.jsonl").read_text(), "gpt-6.2-sol")
    # 300 input tokens of which 120 cached, 60 output: 180 x $2 + 120 x $0.10 + 60 x $10 per million
    assert spend == CodexSpend("gpt-6.2-sol", 972e-6, 300, 60, "All done: read a.md")


def test_a_failed_turn_spent_nothing_and_said_nothing():
    assert read((CAPTURED / "turn-failed.jsonl").read_text(), "gpt-6.2-sol") == CodexSpend("gpt-6.2-sol", 0, 0, 0, "")


@pytest.mark.parametrize(
    "stdout",
    ["mutated\n", "", '{"type": "result", "total_cost_usd": 0.1}\n', "Reading additional input from stdin...\n"],
)
def test_output_that_is_not_codexs_events_tells_no_spend(stdout):
    assert read(stdout, "gpt-6.2-sol") is None


def test_usage_summed_over_turns_with_warnings_and_malformed_lines_passed_over():
    stdout = "\n".join(
        [
            "WARNING: something on stdout",
            '{"type":"thread.started","thread_id":"t"}',
            '{"type":"turn.completed","usage":{"input_tokens":1000000,"output_tokens":0}}',
            "{not json",
            '{"type":"turn.completed","usage":{"input_tokens":"many","output_tokens":7}}',
            '{"type":"turn.completed","usage":{"input_tokens":0,"output_tokens":100000,"new_field":1}}',
        ]
    )
    assert read(stdout, "gpt-6.2-sol") == CodexSpend("gpt-6.2-sol", 3.0, 1_000_000, 100_000, "")


@pytest.mark.parametrize(
    ("flags", "model"),
    [
        ("-m gpt-6.2-astra", "gpt-6.2-astra"),
        ("--model gpt-5-mini", "gpt-5-mini"),
        ("--model=o3", "o3"),
        ("-c model='\"gpt-4.1\"'", "gpt-4.1"),
        ("", "from-config"),
    ],
)
def test_the_model_is_the_command_lines_else_codexs_config(tmp_path, flags, model):
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex/config.toml").write_text('model = "from-config"\n')
    assert model_of(LINE.format(flags), {"HOME": str(tmp_path)}) == model


def test_the_model_is_read_from_codex_home_else_codexs_default(tmp_path):
    (tmp_path / "config.toml").write_text('model = "gpt-5"\n')
    assert model_of("codex exec --json x", {"CODEX_HOME": str(tmp_path)}) == "gpt-5"
    (tmp_path / "config.toml").write_text("model = [broken\n")
    assert model_of("codex exec --json x", {"CODEX_HOME": str(tmp_path)}) == "gpt-6.2-sol"
    assert model_of("codex exec 'unbalanced", {"HOME": str(tmp_path / "nowhere")}) == "gpt-6.2-sol"


def test_a_model_missing_from_the_table_is_priced_from_the_mutators_prices():
    config = CommandMutatorConfig(
        command="codex exec --json -m house-model x",
        prices={"house-model": {"input_per_mtok": 1, "output_per_mtok": 2}},
    )
    spend = read((CAPTURED / "exec-json.jsonl").read_text(), "house-model", config.price_table())
    assert spend is not None and spend.cost_usd == (300 * 1 + 60 * 2) / 1_000_000


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_an_event_whose_text_holds_a_unicode_line_separator_is_one_event(separator):
    """Codex writes U+2028, U+2029 and U+0085 raw in its JSON (JSON escapes none of them): the event that holds
    one is read whole, its usage counted and its message the reply."""
    captured = (CAPTURED / "exec-json.jsonl").read_text()
    stdout = captured.replace("All done: read a.md", f"All done:{separator}read a.md").replace("\n", "\r\n")
    assert read(stdout, "gpt-6.2-sol") == CodexSpend("gpt-6.2-sol", 972e-6, 300, 60, f"All done:{separator}read a.md")
