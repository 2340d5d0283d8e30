"""A 5.x file's top-level `target: {extends: "{{ env.NAME }}"}` (AgentV 5's bug-fix-benchmark example), against the
AgentV 5.x CLI built in tests/agentv5: `agentv validate` accepts it whatever the variable holds; `agentv eval`
refuses it when the variable is unset (an eval-local target with no provider) or when the object has a `name`
(removed in 5.x), and runs it on the extended target when the variable names one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runs.parity.harness import (
    AGENTV5,
    agentv_binary,
    agentv_env,
    differences,
    fresh_copy,
    run_agentv,
    run_ours,
    validate_with_agentv,
    validate_with_us,
)

TARGETS = """targets:
  - id: canned
    provider: cli
    config:
      command: python3 ./answer.py {PROMPT_FILE} {OUTPUT_FILE}
  - id: other
    provider: cli
    config:
      command: python3 ./answer.py {PROMPT_FILE} {OUTPUT_FILE} other
"""
ANSWER = "import sys\nopen(sys.argv[2], 'w').write('canned answer' + ''.join(sys.argv[3:]))\n"
BODY = """prompts:
  - "{{ input }}"
tests:
  - id: extended
    vars: {input: hi}
    assert:
      - type: contains
        value: canned
      - type: contains
        value: other
"""
UNNAMED = 'target:\n  extends: "{{ env.AGENT_TARGET }}"\n' + BODY
NAMED = 'target:\n  name: baseline\n  extends: "{{ env.AGENT_TARGET }}"\n' + BODY


def _case(tmp_path: Path, text: str) -> Path:
    source = tmp_path / "source"
    (source / ".agentv").mkdir(parents=True)
    (source / ".agentv" / "targets.yaml").write_text(TARGETS)
    (source / "answer.py").write_text(ANSWER)
    (source / "bench.eval.yaml").write_text(text)
    return fresh_copy(source, tmp_path / "case")


def _eval_theirs(root: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(agentv_binary(AGENTV5)), "eval", "run", "bench.eval.yaml", "--output", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env=agentv_env(root.parent / "home", env),
    )


def _eval_ours(root: Path, out: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "eval", "bench.eval.yaml", "--output", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )


@pytest.mark.parametrize(
    ("text", "env", "field"),
    [(UNNAMED, {}, "target.extends"), (NAMED, {}, "target.name"), (NAMED, {"AGENT_TARGET": "other"}, "target.name")],
    ids=["unset", "named-unset", "named-set"],
)
def test_what_agentv5_validate_accepts_and_its_eval_refuses_is_accepted_by_validate_and_refused_by_a_run(
    text: str, env: dict[str, str], field: str, tmp_path: Path, monkeypatch
):
    monkeypatch.delenv("AGENT_TARGET", raising=False)
    root = _case(tmp_path, text)
    path = root / "bench.eval.yaml"
    assert validate_with_agentv(root, [path], AGENTV5, env) == {"bench.eval.yaml": True}
    theirs = _eval_theirs(root, tmp_path / "agentv-out", env)
    assert not (tmp_path / "agentv-out" / ".internal" / "index.jsonl").exists(), theirs.stdout + theirs.stderr
    checked = validate_with_us(path, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"field '{field}'" in checked.stdout
    ours = _eval_ours(root, tmp_path / "our-out", env)
    assert ours.returncode == 30, ours.stdout + ours.stderr
    assert f"field '{field}'" in ours.stderr and "bench.eval.yaml" in ours.stderr and "Traceback" not in ours.stderr
    assert not (tmp_path / "our-out").exists()


def test_a_target_extending_the_target_a_set_variable_names_scores_as_agentv5_scores_it(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("AGENT_TARGET", "other")
    root = _case(tmp_path, UNNAMED)
    ours = fresh_copy(root, tmp_path / "ours")
    theirs = run_agentv(
        root, [root / "bench.eval.yaml"], tmp_path / "agentv-out", {"AGENT_TARGET": "other"}, binary=AGENTV5
    )
    mine = run_ours(ours, [ours / "bench.eval.yaml"], tmp_path / "our-out")
    assert [row["score"] for row in theirs.values()] == [1]
    assert differences(theirs, mine) == []
