"""A file whose every test AgentV skips (AgentV's features/prompt-template-sdk: its prompt script is missing).

`agentv validate` accepts it and `agentv eval` runs nothing and fails; so
`autoresearch validate` accepts it, saying why each test is skipped, and
`autoresearch eval` fails in one line before writing anything.
"""

from __future__ import annotations

import subprocess

from tests.helpers.repos import assert_one_line_error, cli
from tests.runs.evaltree import write_tree
from tests.runs.parity.harness import agentv_binary, agentv_env

SCRIPT_GRADER = {
    "name": "custom-prompt-eval",
    "type": "llm-grader",
    "prompt": {"command": ["bun", "run", "../prompts/missing.ts"]},
}
TESTS = [
    {"id": "basic", "criteria": "Clear", "input": "What is TypeScript?", "assertions": [SCRIPT_GRADER]},
    {
        "id": "with-config",
        "criteria": "Clear",
        "input": "Explain async",
        "assertions": [{**SCRIPT_GRADER, "name": "strict"}],
    },
]


def test_every_test_skipped_validates_as_agentv_validates_it_and_does_not_run(tmp_path):
    eval_file = write_tree(tmp_path, TESTS, {})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # AgentV resolves files up to the repository root
    theirs = subprocess.run(
        [str(agentv_binary()), "validate", str(eval_file)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=agentv_env(tmp_path / "home"),
    )
    assert "Valid: 1" in theirs.stdout
    ran = subprocess.run(
        [str(agentv_binary()), "eval", str(eval_file), "--output", str(tmp_path / "agentv-out")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=agentv_env(tmp_path / "home"),
    )
    assert ran.returncode != 0 and not (tmp_path / "agentv-out" / "index.jsonl").exists()

    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 0, done.stdout
    assert "ok, 0 test(s)" in done.stdout
    assert done.stdout.count("the test is skipped, as AgentV skips it") == 2

    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"))
    assert_one_line_error(done, 30, str(eval_file), "field 'tests'", "AgentV skips every test (basic, with-config)")
    assert not (tmp_path / "out").exists()


def test_a_file_with_no_tests_at_all_is_still_refused(tmp_path):
    eval_file = write_tree(tmp_path, [], {})
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 30 and "the eval file has no tests" in done.stdout
