"""Reading AgentV result rows (index.jsonl) from a run directory or any .jsonl file."""

from __future__ import annotations

import json
import math
from pathlib import Path

from runs.errors import BadResults

INDEX = "index.jsonl"


def index_path(source: Path) -> Path:
    """A run directory means its index.jsonl; anything else is taken as the file itself."""
    return source / INDEX if source.is_dir() else source


def load_rows(source: Path) -> list[dict]:
    """Every row of a result file, in file order, each with a string `test_id` and a numeric `score`.

    AgentV's older files name the id `eval_id`, and camelCase writers `testId`; both are accepted (as `agentv compare`
    accepts them) and copied to `test_id`.
    """
    path = index_path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadResults(f"{path}: no such result file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            rows.append(_parse_row(path, number, line))
    return rows


def _parse_row(path: Path, number: int, line: str) -> dict:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadResults(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    if not isinstance(row, dict):
        raise BadResults(f"{path}:{number}: a result row must be a JSON object")
    test_id = row.get("test_id", row.get("testId", row.get("eval_id")))
    if not isinstance(test_id, str) or not test_id:
        raise BadResults(f"{path}:{number}: field 'test_id' is missing or not a non-empty string")
    score = row.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)) or math.isnan(score):
        raise BadResults(f"{path}:{number}: field 'score' is missing or not a number")
    row["test_id"] = test_id
    return row


def mean_score(rows: list[dict]) -> float:
    """The run's overall score: the mean of its per-test scores (last duplicate wins)."""
    by_id = {row["test_id"]: float(row["score"]) for row in rows}
    return sum(by_id.values()) / len(by_id) if by_id else 0.0


def assertion_rates(rows: list[dict]) -> dict[str, float]:
    """{grader name (or type when unnamed): mean score over the tests that have it}.

    Rows with no per-grader `scores` fall back to their `assertions` list, each
    assertion text counted as passed or not.
    """
    totals: dict[str, list[float]] = {}
    for row in {r["test_id"]: r for r in rows}.values():
        for name, value in _grader_scores(row):
            totals.setdefault(name, []).append(value)
    return {name: sum(v) / len(v) for name, v in totals.items()}


def _grader_scores(row: dict) -> list[tuple[str, float]]:
    scores = row.get("scores")
    if isinstance(scores, list) and scores:
        return [
            (str(s.get("name") or s.get("type") or "score"), float(s.get("score", 0.0)))
            for s in scores
            if isinstance(s, dict) and isinstance(s.get("score"), (int, float))
        ]
    assertions = row.get("assertions")
    if isinstance(assertions, list):
        return [
            (str(a.get("text", "assertion")), 1.0 if a.get("passed") else 0.0)
            for a in assertions
            if isinstance(a, dict)
        ]
    return []
