"""The built-in runner gives the per-test scores and statuses AgentV 4.42.4 gave on the same eval files.

Each directory of tests/runs/compat holds eval files, their offline targets
and an expected.jsonl recorded by running the real `agentv eval` on them
(`tests/runs/compat/record.py`); an LLM grader's replies come from the case's
`grader_rules.json` through the same deterministic grader server both tools
were pointed at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.retry import DEFAULT_MAX_RETRIES
from autoresearch.runs.runner.settings import run_options
from tests.helpers.grader_server import GraderServer, RuleTable
from tests.runs.compat.record import RETRIED, RULES, chosen_target, eval_files


@pytest.fixture
def grader_server(compat_case: Path, monkeypatch):
    rules = compat_case / RULES
    with GraderServer(RuleTable.load(rules) if rules.is_file() else RuleTable((), "{}")) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        yield server


def test_every_compat_eval_scores_as_agentv(compat_case: Path, grader_server: GraderServer, tmp_path: Path):
    expected = {
        row["test_id"]: row for row in map(json.loads, (compat_case / "expected.jsonl").read_text().splitlines())
    }
    seen = set()
    for eval_file in eval_files(compat_case):
        run_dir = tmp_path / "out" / eval_file.stem
        prepared = prepare(eval_file, compat_case, target=chosen_target(compat_case))
        retries = DEFAULT_MAX_RETRIES if compat_case.name in RETRIED else 0
        execute(prepared, run_dir, run_options(prepared.suite, 4, max_retries=retries), show_progress=False)
        for row in load_rows(run_dir):
            want = expected[row["test_id"]]
            seen.add(row["test_id"])
            assert abs(row["score"] - want["score"]) <= 1e-9, (row["test_id"], row["scores"], row.get("error"))
            assert row["execution_status"] == want["execution_status"], (row["test_id"], row.get("error"))
            if not want["scores"]:
                continue  # AgentV lists no per-grader entry for the implicit criteria-only grader; we do
            got = [(s["name"], s["type"], s["score"], s["verdict"]) for s in row["scores"]]
            assert got == [
                (s["name"], s["type"], pytest.approx(s["score"], abs=1e-9), s["verdict"]) for s in want["scores"]
            ], row["test_id"]
    assert seen == set(expected)
