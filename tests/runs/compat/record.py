"""Record a compat case's expected.jsonl with the real AgentV: `python -m tests.runs.compat.record DIR [AGENTV]`.

For each eval file of DIR (`*.eval.yaml`, `evals.json`) it runs
`agentv eval FILE --target canned --output OUT` (without `--target` when the
case defines no `canned` target: its files choose theirs) with the grader server of
`grader_rules.json` (when the case has one) reachable through GRADER_BASE_URL,
GRADER_API_KEY and GRADER_MODEL, then keeps, per test, what a compatible runner
must reproduce: `score`, `execution_status`, and each grader's name, type,
score and verdict. The tests of a file that ran on several targets (`execution.targets`) are
keyed `test@target`, the id our runner gives its rows. AGENTV is the `agentv` executable (default: `agentv` on PATH;
the cases were recorded with `npm install agentv@4.42.4`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from autoresearch.runs.matrix import keyed_rows
from tests.helpers.grader_server import GraderServer, RuleTable
from tests.runs.parity.harness import agentv_env

RULES = "grader_rules.json"
RETRIED = {"cli-retries", "replay"}
"""The cases whose targets are retried as AgentV retries a failed answer by default (`--max-retries` 2: `cli`
commands that fail on purpose, a replay record found on a retry's attempt), in the parity tests; the others run
without retries on both sides, so that a target failing on purpose costs no waiting."""


def eval_files(case_dir: Path) -> list[Path]:
    return sorted([*case_dir.glob("*.eval.yaml"), *case_dir.glob("evals.json")])


def chosen_target(case_dir: Path) -> str | None:
    """`canned` when the case's targets file defines it (every test then runs on it), else None."""
    targets = case_dir / ".agentv" / "targets.yaml"
    return "canned" if targets.is_file() and "name: canned" in targets.read_text() else None


def expected_row(row: dict) -> dict:
    scores = [{k: s.get(k) for k in ("name", "type", "score", "verdict")} for s in row.get("scores") or []]
    return {
        "test_id": row["test_id"],
        "score": row["score"],
        "execution_status": row["execution_status"],
        "scores": scores,
    }


def run_agentv(agentv: str, case_dir: Path, env: dict[str, str]) -> list[dict]:
    rows = []
    target = chosen_target(case_dir)
    for eval_file in eval_files(case_dir):
        with (
            tempfile.TemporaryDirectory(prefix="agentv-out-") as out,
            tempfile.TemporaryDirectory(prefix="agentv-home-") as home,
        ):
            command = [agentv, "eval", eval_file.name, *(["--target", target] if target else []), "--output", out]
            # its own HOME: AgentV writes ~/.agentv (workspaces, caches), which is nobody's business here
            subprocess.run(
                command, cwd=case_dir, env=agentv_env(Path(home), env), check=False, capture_output=True, timeout=600
            )
            rows += keyed_rows(
                [json.loads(line) for line in (Path(out) / "index.jsonl").read_text().splitlines() if line.strip()]
            )
    return rows


def record(case_dir: Path, agentv: str = "agentv") -> list[dict]:
    rules = case_dir / RULES
    table = RuleTable.load(rules) if rules.is_file() else RuleTable((), "{}")
    with GraderServer(table) as server:
        rows = run_agentv(agentv, case_dir, server.env())
    return [expected_row(row) for row in rows]


def main() -> None:
    case_dir = Path(sys.argv[1]).resolve()
    agentv = sys.argv[2] if len(sys.argv) > 2 else "agentv"
    rows = record(case_dir, str(Path(agentv).resolve()) if os.sep in agentv else agentv)  # it runs in DIR
    (case_dir / "expected.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} tests recorded in {case_dir / 'expected.jsonl'}")


if __name__ == "__main__":
    main()
