"""The real AgentV (4.42.4) is the oracle: the same eval files, run by both, give the same per-test scores and statuses.

Every directory under tests/runs/compat/ is a case (eval files and their
.agentv/targets.yaml); adding a directory adds a case. A generated corpus
mixes the deterministic graders at random; the validate corpus holds one
small file per construct AgentV accepts, each of which both `agentv
validate` and `autoresearch validate` must accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.grader_server import GraderServer, RuleTable
from tests.runs.compat.record import RETRIED, RULES, chosen_target
from tests.runs.parity.generate import write_corpus
from tests.runs.parity.harness import (
    REPO,
    differences,
    eval_files,
    fresh_copy,
    run_agentv,
    run_ours,
    validate_with_agentv,
    validate_with_us,
)

COMPAT = REPO / "tests" / "runs" / "compat"
VALIDATE_CORPUS = Path(__file__).resolve().parent / "validate_corpus"
GRADER_ENV = {"PARITY_GRADER_MODEL": "fake-model", "PARITY_GRADER_KEY": "fake-key"}
CASES = sorted(p for p in COMPAT.iterdir() if p.is_dir() and eval_files(p))


def _both(root: Path, tmp_path: Path, env: dict[str, str] | None = None, retries: int | None = 0) -> tuple[dict, dict]:
    """A case with a target named `canned` runs on it (as tests/runs/compat/record.py records); others as their files say."""
    target = chosen_target(root)
    ours = fresh_copy(
        root, tmp_path / "ours"
    )  # before agentv runs: a stateful target (compat/experiments) starts afresh
    theirs = run_agentv(root, eval_files(root), tmp_path / "agentv-out", env, target, retries)
    return theirs, run_ours(ours, eval_files(ours), tmp_path / "our-out", target, retries)


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_compat_case_scores_as_agentv_scores_it(case: Path, tmp_path: Path, monkeypatch):
    """LLM graders of both tools are answered by one deterministic grader server, from the case's rule table."""
    rules = case / RULES
    with GraderServer(RuleTable.load(rules) if rules.is_file() else RuleTable((), "{}")) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        retries = None if case.name in RETRIED else 0
        theirs, ours = _both(fresh_copy(case, tmp_path / "case"), tmp_path, server.env(), retries)
    assert theirs, f"agentv ran no test of {case.name}"
    assert differences(theirs, ours) == []


def test_generated_corpus_scores_as_agentv_scores_it(tmp_path: Path):
    root = tmp_path / "generated"
    root.mkdir()
    write_corpus(root)
    fresh_copy(root, tmp_path / "copy")
    theirs, ours = _both(tmp_path / "copy", tmp_path)
    assert len(theirs) == 40
    assert differences(theirs, ours) == []


def test_every_file_agentv_validate_accepts_autoresearch_validate_accepts(tmp_path: Path):
    root = fresh_copy(VALIDATE_CORPUS, tmp_path / "corpus")
    files = eval_files(root) + sorted(root.glob("*/*.eval.yaml"))
    verdicts = validate_with_agentv(root, [f for f in files if f.suffix != ".json"])
    assert verdicts and all(verdicts.values()), verdicts
    refused = {}
    for path in files:
        done = validate_with_us(
            path, GRADER_ENV, *(["--target", "echo"] if path.suffix == ".json" else [])
        )  # evals.json names no target
        if done.returncode != 0:
            refused[path.name] = done.stdout + done.stderr
    assert refused == {}
