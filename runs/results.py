"""Reading AgentV result rows (index.jsonl) from a run directory or any .jsonl file."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, TypeGuard

from autoresearch.plumbing.redact import redact, secret_values
from autoresearch.runs.errors import BadResults

INDEX = "index.jsonl"

Row = dict[str, Any]
"""A result row (a line of index.jsonl) as JSON gives it: the edge where the results come in, so its values are Any."""


def safe_segment(test_id: str) -> str:
    """The name of a test's own directory in a run directory: its id, with what a file name cannot hold replaced."""
    return re.sub(r'[/\\:*?"<>|]', "_", test_id.strip()) or "unknown"


def index_path(source: Path) -> Path:
    """A run directory means its index.jsonl; anything else is taken as the file itself."""
    return source / INDEX if source.is_dir() else source


def load_rows(source: Path) -> list[Row]:
    """Every row of a result file, in file order, each with a string `test_id` and a numeric `score`.

    AgentV's older files name the id `eval_id`, and camelCase writers `testId`; both are accepted (as `agentv compare`
    accepts them) and copied to `test_id`. Python's JSON reader takes `NaN`, `Infinity` and `1e309` (infinite once
    read), which no other JSON reader does: a row holding a number that is not finite, anywhere, is refused, so none
    can reach iterations.jsonl or a comparison. Scores are not range-checked here (a `metric` eval's row holds its raw
    number): see `require_unit_scores`.
    """
    path = index_path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadResults(f"{path}: no such result file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None
    return parse_rows(path, text)


def parse_rows(path: Path, text: str) -> list[Row]:
    """The rows of a result file's text (`path` names it in errors)."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            rows.append(_parse_row(path, number, line))
    return rows


def _parse_row(path: Path, number: int, line: str) -> Row:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadResults(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise BadResults(f"{path}:{number}: not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise BadResults(f"{path}:{number}: not valid JSON ({str(exc).split(':')[0]})") from None
    if not isinstance(row, dict):
        raise BadResults(f"{path}:{number}: a result row must be a JSON object")
    test_id = row.get("test_id", row.get("testId", row.get("eval_id")))
    if not isinstance(test_id, str) or not test_id:
        raise BadResults(f"{path}:{number}: field 'test_id' is missing or not a non-empty string")
    score = row.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise BadResults(f"{path}:{number}: field 'score' is missing or not a number")
    field = _first_non_finite(row)
    if field is not None:
        raise BadResults(
            f"{path}:{number}: field '{field}' is not a finite number (NaN, Infinity and 1e309 are not JSON)"
        )
    cost = row.get("cost_usd")
    if _is_number(cost) and cost < 0:  # summed into the spend a budget bounds
        raise BadResults(f"{path}:{number}: field 'cost_usd' is {cost}, below 0")
    row["test_id"] = test_id
    return row


def _first_non_finite(value: object, where: str = "") -> str | None:
    """The path (`scores[0].score`) of the first number in `value` that is not finite, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 1e308:
        return where  # finite for Python, but no float holds it
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        here = f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if where else key
        found = _first_non_finite(item, here)
        if found is not None:
            return found
    return None


def require_unit_scores(path: Path, rows: list[Row]) -> None:
    """AgentV rows score 0 to 1, each test and each of its graders; anything else is a broken eval
    (a percentage, a raw metric) whose comparisons and pass rates would mean nothing."""
    for row in rows:
        scores = row.get("scores")
        graders = scores if isinstance(scores, list) else []
        values = [("score", row["score"])] + [
            (f"scores[{i}].score", g["score"])
            for i, g in enumerate(graders)
            if isinstance(g, dict) and _is_number(g.get("score"))
        ]
        for field, value in values:
            if not 0 <= value <= 1:
                raise BadResults(f"{path}: test {row['test_id']!r}: field '{field}' is {value}, outside 0..1")


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mean_score(rows: list[Row]) -> float:
    """The run's overall score: the mean of its per-test scores (last duplicate wins)."""
    by_id = {row["test_id"]: float(row["score"]) for row in rows}
    return sum(by_id.values()) / len(by_id) if by_id else 0.0


def assertion_rates(rows: list[Row]) -> dict[str, float]:
    """{grader name (or type when unnamed): mean score over the tests that have it}.

    Rows with no per-grader `scores` fall back to their `assertions` list, each
    assertion text counted as passed or not.
    """
    totals: dict[str, list[float]] = {}
    secrets = secret_values()  # names are the eval's text: they reach iterations.jsonl, the chart and the mutator
    for row in {r["test_id"]: r for r in rows}.values():
        for name, value in _grader_scores(row):
            totals.setdefault(redact(name, secrets), []).append(value)
    return {name: sum(v) / len(v) for name, v in totals.items()}


def _grader_scores(row: Row) -> list[tuple[str, float]]:
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
