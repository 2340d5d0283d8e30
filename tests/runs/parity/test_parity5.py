"""AgentV 5.x (built from source in tests/agentv5) is the oracle for its own eval format: the same 5.x files, run
by both, give the same per-test scores and statuses; what we cannot run yet is refused, naming the field.

Every directory under tests/runs/compat5/ is a case, as under tests/runs/compat/ for 4.42.4.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.grader_server import GraderServer, RuleTable
from tests.runs.compat.record import RULES
from tests.runs.parity.harness import AGENTV5, REPO, differences, eval_files, fresh_copy, run_agentv, run_ours

COMPAT5 = REPO / "tests" / "runs" / "compat5"
CASES = sorted(p for p in COMPAT5.iterdir() if p.is_dir() and eval_files(p))


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_agentv5_case_scores_as_agentv5_scores_it(case: Path, tmp_path: Path, monkeypatch):
    """LLM graders of both tools are answered by one deterministic grader server, from the case's rule table."""
    rules = case / RULES
    with GraderServer(RuleTable.load(rules) if rules.is_file() else RuleTable((), "{}")) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        root = fresh_copy(case, tmp_path / "case")
        ours = fresh_copy(root, tmp_path / "ours")
        theirs = run_agentv(root, eval_files(root), tmp_path / "agentv-out", server.env(), binary=AGENTV5)
        mine = run_ours(ours, eval_files(ours), tmp_path / "our-out")
    assert theirs, f"agentv 5 ran no test of {case.name}"
    assert differences(theirs, mine) == [], "\n".join(differences(theirs, mine))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("scenarios:\n  - description: x\n    config: []\n    tests: []\n", "scenarios"),
        ("execution:\n  target: canned\n", "execution"),
        ("default_test:\n  options:\n    transform: output.trim()\n", "options.transform"),
        ("prompts:\n  - '{{ input }}'\n  - 'Q: {{ input }}'\n", "prompts"),
    ],
)
def test_what_agentv5_files_ask_and_we_cannot_run_is_refused_naming_the_field(body: str, field: str, tmp_path: Path):
    path = tmp_path / "x.eval.yaml"
    prompts = "" if "prompts:" in body else "prompts:\n  - '{{ input }}'\n"
    path.write_text(f"target: canned\n{prompts}{body}tests:\n  - id: a\n    vars: {{input: hi}}\n    assert: [ok]\n")
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "validate", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 30, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert f"'{field}'" in out and "x.eval.yaml" in out and "AgentV 5" in out, out
    assert "Traceback" not in done.stderr
