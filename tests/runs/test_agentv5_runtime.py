"""AgentV 5's host environments and extensions in the built-in runner: what AgentV 5 throws on is refused naming
the field, and a workdir used in place gets nothing of ours (the scores are checked against the 5.x CLI in
tests/runs/parity/test_parity5.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runs.parity.harness import REPO, eval_files, fresh_copy, run_ours, validate_with_us

HEAD = "target: canned\nprompts:\n  - '{{ input }}'\n"
TESTS = "tests:\n  - id: a\n    vars: {input: hi}\n    assert: [ok]\n"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("environment:\n  workdir: work\n", "environment.type"),
        ("environment:\n  type: host\n", "environment.workdir"),
        ("environment:\n  type: host\n  workdir: work\n  image: x\n", "environment.image"),
        ("environment:\n  type: host\n  workdir: work\n  setup: {command: make}\n", "environment.setup.command"),
        (
            "environment:\n  type: host\n  workdir: work\n  setup: {command: [make], args: [x]}\n",
            "environment.setup.args",
        ),
        (
            "environment:\n  type: host\n  workdir: work\n  setup: {command: [make], timeout_ms: 0}\n",
            "environment.setup.timeout_ms",
        ),
        ("environment:\n  type: host\n  workdir: work\n  env: {N: 1}\n", "environment.env"),
        ("environment: file://missing.yaml\n", "environment"),
        ("environment: work\n", "environment"),
        ("extensions: file://hooks.mjs:beforeAll\n", "extensions"),
        ("extensions:\n  - file://missing.mjs:beforeAll\n", "extensions[0]"),
        ("extensions:\n  - file://hooks.mjs:beforeRun\n", "extensions[0]"),
        ("extensions:\n  - agentv:agent-rules:later\n", "extensions[0]"),
        ("extensions:\n  - {id: other}\n", "extensions[0].id"),
        ("extensions:\n  - {id: agentv:agent-rules, skills: 3}\n", "extensions[0].skills"),
    ],
)
def test_what_agentv5_throws_on_in_an_environment_or_extension_is_refused_naming_the_field(
    body: str, field: str, tmp_path: Path
):
    (tmp_path / "hooks.mjs").write_text("export function beforeAll() {}\n")
    path = tmp_path / "x.eval.yaml"
    path.write_text(HEAD + body + TESTS)
    done = validate_with_us(path)
    assert done.returncode == 30, done.stdout + done.stderr
    assert f"field '{field}'" in done.stdout + done.stderr and "x.eval.yaml" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_a_host_environment_is_used_in_place_and_its_baseline_repository_kept_out_of_it(tmp_path: Path):
    """AgentV 5 makes a `.git` in the workdir for its file-changes baseline; ours lives in the run's temporary
    directory, so only what the setup and the target write lands in the user's directory."""
    case = fresh_copy(REPO / "tests" / "runs" / "compat5" / "environment", tmp_path / "case")
    files = [f for f in eval_files(case) if f.name == "host.eval.yaml"]
    before = sorted(p.name for p in (case / "work").iterdir())
    rows = run_ours(case, files, tmp_path / "out")
    assert {key[1]: row["score"] for key, row in rows.items()} == {"setup-ran": 1.0, "second-test": 1.0}
    left = sorted(p.name for p in (case / "work").iterdir())
    assert left == sorted([*before, "ready.txt", "answer-setup-ran.log", "answer-second-test.log"])


def test_tests_naming_different_host_environments_are_refused_naming_the_field(tmp_path: Path):
    """AgentV 5 sets up one host environment per run and fails every test of a file whose tests name two."""
    recipe = "    environment: {{type: host, workdir: {}}}\n"
    path = tmp_path / "x.eval.yaml"
    tests = "tests:\n" + "".join(
        f"  - id: {name}\n    vars: {{input: hi}}\n    assert: [ok]\n" + recipe.format(name) for name in ("a", "b")
    )
    path.write_text(HEAD + tests)
    done = validate_with_us(path)
    assert done.returncode == 30, done.stdout + done.stderr
    assert "field 'environment'" in done.stdout + done.stderr and "different host environments" in done.stdout
    path.write_text(HEAD + tests.replace("workdir: b", "workdir: a"))
    assert "environment" not in validate_with_us(path).stdout  # one recipe: the tests share it
