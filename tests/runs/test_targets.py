"""Targets: where they are found, what a broken definition gives, and what a `cli` target receives and answers."""

from __future__ import annotations

import json

import pytest
import yaml

from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.parse import EvalFileError
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import RunOptions
from tests.helpers.repos import cli, make_repo
from tests.runs.evaltree import canned_command, write_tree

CONTAINS_A = [{"type": "contains", "value": "a"}]
BROKEN = {
    "malformed": ("targets: [\n", "targets", "cannot read the targets file (expected the node content"),
    "empty": ("targets: []\n", "targets", "the list is empty: define at least one target"),
    "no-list": ("foo: 1\n", "targets", "expected a `targets:` list"),
    "timeout": (
        "targets:\n  - {name: canned, provider: cli, command: echo, timeout_seconds: soon}\n",
        "targets[canned].timeout_seconds",
        "must be a number of seconds > 0, not 'soon'",
    ),
}


def rows_of(tmp_path, tests, answers=None, targets=None) -> dict[str, dict]:
    eval_file = write_tree(tmp_path, tests, answers or {}, targets=targets)
    execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(workers=2), show_progress=False)
    return {row["test_id"]: row for row in load_rows(tmp_path / "out")}


def only_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.parametrize("text, field, message", BROKEN.values(), ids=list(BROKEN))
def test_a_broken_targets_file_fails_validate_and_eval_with_file_and_field(tmp_path, text, field, message):
    eval_file = write_tree(tmp_path, [{"id": "a", "input": "x", "assertions": CONTAINS_A}], {"a": "a"})
    targets = tmp_path / ".agentv" / "targets.yaml"
    targets.write_text(text)
    checked = cli(tmp_path, "validate", str(eval_file))
    assert checked.returncode == 30
    assert f"{targets}: field '{field}': {message}" in checked.stdout
    ran = cli(tmp_path, "eval", str(eval_file), "--output", "out")
    assert ran.returncode == 30
    assert only_line(ran.stderr).startswith(f"autoresearch: {targets}: field '{field}': {message}")


def test_run_refuses_a_broken_targets_file_in_one_line(tmp_path):
    repo = make_repo(
        tmp_path / "r",
        {
            "prompt.md": "Hi.\n",
            "evals/s.eval.yaml": yaml.safe_dump({"tests": [{"id": "a", "input": "x", "assertions": CONTAINS_A}]}),
            ".agentv/targets.yaml": "foo: 1\n",
            "autoresearch.yaml": yaml.safe_dump(
                {
                    "artifact": "prompt.md",
                    "eval": {"file": "evals/s.eval.yaml"},
                    "mutator": {"provider": "command", "command": "true"},
                }
            ),
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 30
    assert f"{repo / '.agentv' / 'targets.yaml'}: field 'targets': expected a `targets:` list" in only_line(done.stderr)


def test_plain_targets_yaml_is_used_and_the_search_stops_at_the_repository_root(tmp_path):
    canned = {"targets": [{"name": "canned", "provider": "cli", "command": "echo a > {OUTPUT_FILE}"}]}
    (tmp_path / "targets.yaml").write_text(yaml.safe_dump(canned))
    repo = make_repo(
        tmp_path / "r",
        {"evals/s.eval.yaml": yaml.safe_dump({"tests": [{"id": "a", "input": "x", "assertions": CONTAINS_A}]})},
    )
    outside = cli(repo, "validate", "evals/s.eval.yaml")
    assert outside.returncode == 30 and "no .agentv/targets.yaml or targets.yaml between" in outside.stdout
    (repo / "targets.yaml").write_text(yaml.safe_dump(canned))
    assert cli(repo, "validate", "evals/s.eval.yaml").returncode == 0
    done = cli(repo, "eval", "evals/s.eval.yaml", "--output", "out")
    assert done.returncode == 0 and "a      1.000  ok" in done.stdout


def configured_repo(tmp_path, inline_targets: list[dict]):
    """A repo whose targets.yaml answers wrong: only autoresearch.yaml's inline `eval.targets` answers right."""
    wrong = {"targets": [{"name": "canned", "provider": "cli", "command": "echo wrong > {OUTPUT_FILE}"}]}
    settings = {
        "artifact": "prompt.md",
        "eval": {"file": "evals/s.eval.yaml", "targets": inline_targets},
        "mutator": {"provider": "command", "command": "true"},
    }
    return make_repo(
        tmp_path / "r",
        {
            "prompt.md": "Hi.\n",
            "evals/s.eval.yaml": yaml.safe_dump({"tests": [{"id": "a", "input": "x", "assertions": CONTAINS_A}]}),
            ".agentv/targets.yaml": yaml.safe_dump(wrong),
            "autoresearch.yaml": yaml.safe_dump(settings),
        },
    )


def test_inline_eval_targets_replace_the_targets_file(tmp_path):
    repo = configured_repo(tmp_path, [{"name": "inline", "provider": "cli", "command": "echo a > {OUTPUT_FILE}"}])
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert "score 1.0000 over 1 test(s)" in done.stdout


def test_an_empty_inline_targets_list_is_refused_by_name(tmp_path):
    done = cli(configured_repo(tmp_path, []), "eval")
    assert done.returncode == 30
    assert "autoresearch.yaml (eval.targets): field 'targets': the list is empty" in only_line(done.stderr)


def test_cli_prompt_placeholders_are_shell_escaped(tmp_path):
    prompt = 'it\'s $HOME; echo injected "quoted" `date`'
    targets = [
        {"name": "args", "provider": "cli", "command": "printf %s {PROMPT} > {OUTPUT_FILE}"},
        {"name": "file", "provider": "cli", "command": "cat {PROMPT_FILE} > {OUTPUT_FILE}"},
    ]
    tests = [
        {
            "id": name,
            "input": prompt,
            "execution": {"target": name},
            "assertions": [{"type": "equals", "value": prompt}],
        }
        for name in ("args", "file")
    ]
    rows = rows_of(tmp_path, tests, targets=targets)
    assert (rows["args"]["score"], rows["file"]["score"]) == (1.0, 1.0)


def test_a_cli_command_s_scratch_folder_holds_only_its_answer_unless_it_asks_for_the_prompt_file(tmp_path):
    """Its output goes to files in memory and the prompt to a file only when {PROMPT_FILE} names it: four files
    fewer made and removed in the temporary directory for every test of a fast target (bench/eval_cli.py)."""
    listing = 'ls -A "$(dirname {OUTPUT_FILE})" | tr "\\n" " " > {OUTPUT_FILE}'
    targets = [
        {"name": "plain", "provider": "cli", "command": listing},
        {"name": "file", "provider": "cli", "command": listing + "; : {PROMPT_FILE}"},
    ]
    tests = [
        {"id": name, "input": "q", "execution": {"target": name}, "assertions": [{"type": "contains", "value": "x"}]}
        for name in ("plain", "file")
    ]
    eval_file = write_tree(tmp_path, tests, {}, targets=targets)
    execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(workers=2), show_progress=False)
    answers = {name: (tmp_path / "out" / name / "outputs" / "response.md").read_text() for name in ("plain", "file")}
    assert answers == {"plain": "@[assistant]:\noutput.txt ", "file": "@[assistant]:\noutput.txt prompt.md "}


def test_cli_envelope_output_as_text_and_as_messages(tmp_path):
    messages = [
        {"role": "assistant", "content": "first"},
        {"role": "user", "content": "more"},
        {"role": "assistant", "content": "last"},
    ]
    blocks = [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "one"},
                {"type": "image", "media_type": "image/png", "source": "x.png"},
                {"type": "text", "text": "two"},
            ],
        }
    ]
    # AgentV's schema: `output` must be a list of messages each with a `role`; otherwise the whole file is the answer
    not_envelopes = {"string-output": {"output": "plain"}, "roleless": {"output": [*blocks, {"content": "nobody's"}]}}
    answers = {
        "text": {"text": "plain", "token_usage": {"input": 7, "output": 3}, "cost_usd": 0.5},
        "messages": {"output": messages},
        "blocks": {"output": blocks},
        **not_envelopes,
    }
    tests = [
        {"id": "text", "input": "x", "assertions": [{"type": "equals", "value": "plain"}]},
        {"id": "messages", "input": "x", "assertions": [{"type": "equals", "value": "last"}]},
        {"id": "blocks", "input": "x", "assertions": [{"type": "equals", "value": "one\ntwo"}]},
        *(
            {"id": name, "input": "x", "assertions": [{"type": "equals", "value": json.dumps(raw)}]}
            for name, raw in not_envelopes.items()
        ),
    ]
    rows = rows_of(tmp_path, tests, answers)
    assert {name: row["score"] for name, row in rows.items()} == dict.fromkeys(answers, 1.0)
    assert (rows["text"]["token_usage"], rows["text"]["cost_usd"]) == ({"input": 7, "output": 3}, 0.5)


def test_a_duplicate_name_and_a_non_text_provider_are_named(tmp_path):
    canned = {"name": "canned", "provider": "cli", "command": canned_command()}
    targets = [canned, canned, {"name": "odd", "provider": ["cli"]}]
    eval_file = write_tree(tmp_path, [{"id": "a", "input": "x", "assertions": CONTAINS_A}], {}, targets=targets)
    with pytest.raises(EvalFileError) as caught:
        prepare(eval_file, tmp_path)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("targets[1].name", "'canned' is already defined above"),
        (
            "targets[odd].provider",
            "unsupported provider ['cli'] (the built-in runner supports: cli, anthropic, openai, replay)",
        ),
    ]


def test_numbers_from_environment_references_are_converted_and_bad_ones_named(tmp_path, monkeypatch):
    monkeypatch.setenv("TARGET_TIMEOUT", "30")
    targets = [
        {"name": "canned", "provider": "cli", "command": canned_command(), "timeout_seconds": "${{ TARGET_TIMEOUT }}"},
        {
            "name": "llm",
            "provider": "openai",
            "model": "${{ TARGET_TIMEOUT }}",
            "max_output_tokens": 1.5,
            "temperature": "hot",
        },
    ]
    eval_file = write_tree(tmp_path, [{"id": "a", "input": "x", "assertions": CONTAINS_A}], {"a": "a"}, targets=targets)
    with pytest.raises(EvalFileError) as caught:
        prepare(eval_file, tmp_path)
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("targets[llm].max_output_tokens", "must be a whole number of tokens >= 1, not 1.5"),
        ("targets[llm].temperature", "must be a number >= 0, not 'hot'"),
    ]
    del targets[1]
    eval_file = write_tree(tmp_path, [{"id": "a", "input": "x", "assertions": CONTAINS_A}], {"a": "a"}, targets=targets)
    assert prepare(eval_file, tmp_path).targets.built["canned"].timeout_s == 30.0


def test_validate_without_a_path_checks_the_configured_eval_with_its_inline_targets(tmp_path):
    repo = configured_repo(tmp_path, [{"name": "inline", "provider": "cli", "command": "echo a > {OUTPUT_FILE}"}])
    done = cli(repo, "validate")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "evals/s.eval.yaml: ok, 1 test(s)" in done.stdout
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    settings["eval"]["targets"] = [{"name": "inline", "provider": "telepathy"}]
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings))
    done = cli(repo, "validate")
    assert done.returncode == 30 and "unsupported provider 'telepathy'" in done.stdout


def test_validate_without_a_path_on_a_command_eval_accepts_the_valid_config(tmp_path):
    repo = make_repo(
        tmp_path / "r",
        {
            "prompt.md": "Hi.\n",
            "autoresearch.yaml": yaml.safe_dump(
                {
                    "artifact": "prompt.md",
                    "eval": {"command": "true"},
                    "mutator": {"provider": "command", "command": "true"},
                }
            ),
        },
    )
    done = cli(repo, "validate")
    assert done.returncode == 0 and "ok, `run` can start (the eval is an eval command" in done.stdout


def test_a_cli_envelope_s_unusable_token_counts_and_cost_count_as_unknown_not_as_a_crash_or_a_refund(tmp_path):
    # "abc" and [1] as counts were a ValueError / TypeError that ended the run; a negative cost lowered the spend a budget bounds.
    # AgentV's schema refuses a count that is not a number (the whole file is then the answer) and drops a negative cost;
    # a count it takes but no budget could (1e300) counts as 0 here
    answers = {
        "words": {"text": "plain", "token_usage": {"input": "abc", "output": [1]}, "cost_usd": 1},
        "huge": {"text": "plain", "token_usage": {"input": 1e300, "output": 5}, "cost_usd": -100},
    }
    tests = [{"id": name, "input": "x", "assertions": [{"type": "equals", "value": "plain"}]} for name in answers]
    rows = rows_of(tmp_path, tests, answers)
    assert (rows["words"]["score"], rows["huge"]["score"]) == (0.0, 1.0)
    for name in answers:
        assert rows[name]["cost_usd"] == 0.0
    assert rows["words"]["token_usage"] == {"input": 0, "output": 0}
    assert rows["huge"]["token_usage"] == {"input": 0, "output": 5}


def test_a_cli_target_without_output_file_is_noted_by_validate_and_every_test_fails_to_run(tmp_path):
    """`agentv validate` accepts the file and `agentv eval` fails each test: a note, then execution errors."""
    eval_file = write_tree(
        tmp_path,
        [{"id": "a", "input": "x", "assertions": CONTAINS_A}],
        {},
        targets=[{"name": "canned", "provider": "cli", "command": "echo a"}],
    )
    note = f"{tmp_path / '.agentv' / 'targets.yaml'}: field 'targets[canned].command': no {{OUTPUT_FILE}}"
    checked = cli(tmp_path, "validate", str(eval_file))
    assert checked.returncode == 0 and f"note: {note}" in checked.stdout
    assert "a 4.x file scores it 0, a 5.x file grades that error as the answer" in checked.stdout  # as each AgentV
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert any(n.startswith(note) for n in report["notes"])
    [row] = report["tests"]
    assert row["execution_status"] == "execution_error" and row["error"].startswith("Failed to read output file")


FIRST_FAILS = "python3 -c \"import sys; sys.exit('first try') if sys.argv[1] == '0' else open(sys.argv[2], 'w').write('a')\" {ATTEMPT} {OUTPUT_FILE}"


def test_eval_max_retries_sets_how_often_a_failed_cli_answer_is_asked_again(tmp_path):
    repo = configured_repo(tmp_path, [{"name": "inline", "provider": "cli", "command": FIRST_FAILS}])
    asked_again = cli(repo, "eval", "--json")  # AgentV's default: twice more
    assert asked_again.returncode == 0 and json.loads(asked_again.stdout)["score"] == 1.0, asked_again.stderr
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    settings["eval"]["max_retries"] = 0
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings))
    never = cli(repo, "eval")
    assert (
        never.returncode == 40
        and "every test failed to run; first error: target inline exited 1: first try" in never.stderr
    )
