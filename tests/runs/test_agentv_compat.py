"""The built-in runner gives the per-test scores and statuses AgentV 4.42.4 gave on the same eval file."""

from __future__ import annotations

import json
from pathlib import Path

from runs.evaluators.builtin import execute, prepare
from runs.results import load_rows
from runs.runner import RunOptions


def test_every_compat_eval_scores_as_agentv(compat_dir: Path, tmp_path: Path):
    expected = {row["test_id"]: row for row in map(json.loads, (compat_dir / "expected.jsonl").read_text().splitlines())}
    for eval_file in sorted(compat_dir.glob("*.eval.yaml")):
        run_dir = tmp_path / "out" / eval_file.stem
        execute(prepare(eval_file, compat_dir), run_dir, RunOptions(workers=4), show_progress=False)
        rows = {row["test_id"]: row for row in load_rows(run_dir)}
        for test_id, row in rows.items():
            want = expected[test_id]
            assert abs(row["score"] - want["score"]) <= 1e-9, (test_id, row["scores"])
            assert row["execution_status"] == want["execution_status"], test_id
            got = [(s["name"], s["type"], s["score"], s["verdict"]) for s in row["scores"]]
            assert got == [(s["name"], s["type"], s["score"], s["verdict"]) for s in want["scores"]], test_id
    assert set(expected) <= {r["test_id"] for d in (tmp_path / "out").iterdir() for r in load_rows(d)}
