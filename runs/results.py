"""Reading AgentV result rows (index.jsonl) from a run directory or any .jsonl file."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeGuard

from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.redact import redact, secret_values
from autoresearch.runs.errors import BadResults, RunsError

INDEX = "index.jsonl"

Row = dict[str, Any]
"""A result row (a line of index.jsonl) as JSON gives it: the edge where the results come in, so its values are Any."""


def safe_segment(test_id: str) -> str:
    """The name of a test's own directory in a run directory: its id, with what a file name cannot hold replaced."""
    return re.sub(r'[/\\:*?"<>|]', "_", test_id.strip()) or "unknown"


def index_path(source: Path) -> Path:
    """A run directory means its index.jsonl; anything else is taken as the file itself."""
    return source / INDEX if source.is_dir() else source


def rows_digest(source: Path) -> str | None:
    """The SHA-256 of a result file's bytes (a run directory's index.jsonl), or None when there is none."""
    try:
        return hashlib.sha256(index_path(source).read_bytes()).hexdigest()
    except OSError:
        return None


def load_rows(source: Path) -> list[Row]:
    """Every row of a result file, in file order, each with a string `test_id` and a numeric `score`.

    AgentV's older files name the id `eval_id`, and camelCase writers `testId`; both are accepted (as `agentv compare`
    accepts them) and copied to `test_id`. Python's JSON reader takes `NaN`, `Infinity` and `1e309` (infinite once
    read), which no other JSON reader does: a row holding a number that is not finite, anywhere, is refused, so none
    can reach iterations.jsonl or a comparison. Scores are not range-checked here (a `metric` eval's row holds its raw
    number): see `require_unit_scores`.
    """
    path = index_path(source)
    return parse_rows(path, _read(path))


TestScore = tuple[str, float]
"""A test's id and its score from 0 to 1: all `compare` reads of a row (a tuple: there are 100,000 a file)."""


def _read(path: Path) -> str:
    return result_text(path, read_bytes(path))


def read_bytes(path: Path) -> bytes:
    """A result file's bytes; a file missing or unreadable is bad input naming it (exit 30, no traceback)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise BadResults(f"{path}: no such result file") from None
    except OSError as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None


def result_text(path: Path, data: bytes) -> str:
    """The file's text, its line ends as written: `autoresearch.plumbing.jsonlines` ends a line at `\\n`, `\\r\\n`
    and `\\r` alike, the lines that reading in text mode (universal newlines) would give."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None


def parse_rows(path: Path, text: str) -> list[Row]:
    """The rows of a result file's text (`path` names it in errors)."""
    return list(_each_row(path, jsonlines.lines(text)))


def _each_row(path: Path, lines: list[str]) -> Iterator[Row]:
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():
            yield parse_row(path, number, line)


class _Suspect(RunsError):
    """A number the strict decoder will not take: the row is read again, and walked, to name its field (never
    raised past `parse_row`; under the one root all the same, as every exception class of ours)."""


def _finite_float(text: str) -> float:
    value = float(text)
    if value - value != 0:  # inf - inf and nan - nan are nan
        raise _Suspect
    return value


def _small_int(text: str) -> int:
    if len(text) > 308:  # a float holds less than 1e309: an integer it cannot hold has 309 digits or more
        raise _Suspect
    return int(text)


def _not_a_number(text: str) -> float:
    raise _Suspect


_STRICT = json.JSONDecoder(parse_float=_finite_float, parse_int=_small_int, parse_constant=_not_a_number)
"""Refuses a non-finite number while parsing, so a clean row (nearly every row) is never walked: walking each row
in Python, a path built for every key, was two thirds of `compare`'s time on 100,000 rows."""


def _decode(path: Path, number: int, line: str) -> tuple[object, bool]:
    """The line's value, and whether it may hold a number that is not finite (then it is read as Python reads JSON)."""
    try:
        try:
            return _STRICT.decode(line), False
        except _Suspect:
            return json.loads(line), True
    except json.JSONDecodeError as exc:
        raise BadResults(f"{path}:{number}: not valid JSON ({exc.msg})") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise BadResults(f"{path}:{number}: not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise BadResults(f"{path}:{number}: not valid JSON ({str(exc).split(':')[0]})") from None


def parse_row(path: Path, number: int, line: str) -> Row:
    """Line `number` of `path` as a row, or bad input naming the line and what is wrong: the one wording of it."""
    row, suspect = _decode(path, number, line)
    if not isinstance(row, dict):
        raise BadResults(f"{path}:{number}: a result row must be a JSON object")
    test_id = row.get("test_id", row.get("testId", row.get("eval_id")))
    if not isinstance(test_id, str) or not test_id:
        raise BadResults(f"{path}:{number}: field 'test_id' is missing or not a non-empty string")
    score = row.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise BadResults(f"{path}:{number}: field 'score' is missing or not a number")
    field = _first_non_finite(row) if suspect else None
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
    if isinstance(value, int) and not isinstance(value, bool) and not _float_holds(value):
        return where  # finite for Python, but no float holds it
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        here = f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}" if where else key
        found = _first_non_finite(item, here)
        if found is not None:
            return found
    return None


def _float_holds(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


def require_unit_scores(path: Path, rows: list[Row]) -> None:
    """AgentV rows score 0 to 1, each test and each of its graders; anything else is a broken eval
    (a percentage, a raw metric) whose comparisons and pass rates would mean nothing."""
    for row in rows:
        problem = out_of_unit(row)
        if problem is not None:
            raise BadResults(f"{path}: {problem}")


def out_of_unit(row: Row) -> str | None:
    """What is wrong with the row's first score outside 0..1, or None (a bool is never outside)."""
    score = row["score"]
    if not 0 <= score <= 1:
        return f"test {row['test_id']!r}: field 'score' is {score}, outside 0..1"
    scores = row.get("scores")
    for i, grader in enumerate(scores if isinstance(scores, list) else ()):
        value = grader.get("score") if isinstance(grader, dict) else None
        if isinstance(value, (int, float)) and not 0 <= value <= 1:
            return f"test {row['test_id']!r}: field 'scores[{i}].score' is {value}, outside 0..1"
    return None


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
