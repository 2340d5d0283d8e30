"""Reading AgentV result rows (index.jsonl) from a run directory or any .jsonl file."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, TypeGuard

import msgspec
from msgspec import UNSET, UnsetType

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


def load_unit_scores(source: Path) -> list[TestScore]:
    """Each row's `test_id` and `score` alone, every row checked as `load_rows` and `require_unit_scores` check them.

    `compare` needs nothing else, and the whole rows of two 100,000-line files would hold hundreds of MiB for
    nothing. The first bad row in file order is reported, as reading every row and then checking the scores would.
    """
    path = index_path(source)
    lines, doubtful = _lines(path)
    scores, out_of_range = [], None
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():
            score = None if doubtful and _may_hold_a_huge_number(line.encode()) else _clean_score(line)
            if score is None:  # read again by the exact reader, which names what is wrong
                row = _parse_row(path, number, line)
                out_of_range = out_of_range or _out_of_unit(row)
                score = (row["test_id"], row["score"])
            scores.append(score)
    if out_of_range is not None:
        raise BadResults(f"{path}: {out_of_range}")
    return scores


def _lines(path: Path) -> tuple[list[str], bool]:
    """The file's lines, and whether it may hold a huge number (then each line is asked before it is decoded).

    The file's bytes and its text are let go before the caller reads the lines: each is as large as the file.
    """
    data = _read_bytes(path)
    doubtful = _may_hold_a_huge_number(data)
    text = _text(path, data)
    del data
    return text.splitlines(), doubtful


TestScore = tuple[str, float]
"""A test's id and its score from 0 to 1: all `compare` reads of a row (a tuple: there are 100,000 a file)."""

_Unit = Annotated[float, msgspec.Meta(ge=0, le=1)]


class _Grader(msgspec.Struct, gc=False):
    """A grader's entry in a row's `scores`: only its score is checked (0..1)."""

    score: _Unit | None | UnsetType = UNSET


class _ScoredRow(msgspec.Struct, gc=False):
    """The fields of a row `compare` reads or checks; the decoder skips the rest without building them.

    The types are the checks `_parse_row` and `_out_of_unit` make, so the decoder makes them while it parses: a
    non-empty string id, a score from 0 to 1, a cost not below 0, graders' scores from 0 to 1. A row they refuse is
    not necessarily bad (a grader's score may be text): the exact reader decides. `testId` and `eval_id` (older and
    camelCase writers) are anything, as the exact reader looks at them only when `test_id` is absent.
    """

    score: _Unit
    test_id: Annotated[str, msgspec.Meta(min_length=1)] | UnsetType = UNSET
    test_id_camel: Any = msgspec.field(default=UNSET, name="testId")
    eval_id: Any = UNSET
    cost_usd: Annotated[float, msgspec.Meta(ge=0)] | None | UnsetType = UNSET
    scores: list[_Grader] | None | UnsetType = UNSET


_SCORED_ROW = msgspec.json.Decoder(_ScoredRow)


def _clean_score(line: str) -> TestScore | None:
    """The row's id and score, if the typed decoder reads the row and its checks pass; else None.

    msgspec refuses what Python's reader accepts beyond JSON (`NaN`, `Infinity`, a lone surrogate) and checks the
    fields it reads, but it skips the other fields' numbers without asking whether a float holds them: so it is
    trusted only on a file, or a line, that `_may_hold_a_huge_number` clears. A row it accepts is then the row
    `_parse_row` would give, whose checks pass. Anything else is read again by `_parse_row`, the one place that
    words the errors. It runs once per row of files of 100,000.
    """
    try:
        row = _SCORED_ROW.decode(line)
    except (msgspec.DecodeError, RecursionError):  # malformed, refused by a type, or nested thousands deep
        return None
    test_id = row.test_id
    if test_id is UNSET:
        test_id = row.eval_id if row.test_id_camel is UNSET else row.test_id_camel
        if type(test_id) is not str or not test_id:
            return None
    return test_id, row.score


_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
_LONG_EXPONENT = re.compile(rb"0e[+-]?000")


def _may_hold_a_huge_number(data: bytes) -> bool:
    """Whether `data` may hold a number no float holds (1e309, 400 digits), which the typed decoder would skip.

    Such a number has an exponent of three digits or more (after a digit, as JSON writes it), or, its exponent
    below 100, at least 210 digits before its point; so is a number of more digits than Python converts. Both are
    looked for with every digit read as 0: an exponent `0e000` and 100 digits in a row. What else matches (digits
    in a string) only sends the file to be asked line by line, and those lines to the exact reader.
    """
    marked = data.translate(_DIGITS_AS_ZERO)
    return b"0" * 100 in marked or _LONG_EXPONENT.search(marked) is not None


def _read(path: Path) -> str:
    return _text(path, _read_bytes(path))


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise BadResults(f"{path}: no such result file") from None
    except OSError as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None


def _text(path: Path, data: bytes) -> str:
    """The file's text, its line ends as written: `str.splitlines` ends a line at `\\r\\n` and `\\r` alike, so the
    lines are those that reading in text mode (universal newlines) would give."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadResults(f"{path}: cannot read results ({exc})") from None


def parse_rows(path: Path, text: str) -> list[Row]:
    """The rows of a result file's text (`path` names it in errors)."""
    return list(_each_row(path, text.splitlines()))


def _each_row(path: Path, lines: list[str]) -> Iterator[Row]:
    for number, line in enumerate(lines, start=1):
        if line and not line.isspace():
            yield _parse_row(path, number, line)


class _Suspect(RunsError):
    """A number the strict decoder will not take: the row is read again, and walked, to name its field (never
    raised past `_parse_row`; under the one root all the same, as every exception class of ours)."""


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


def _parse_row(path: Path, number: int, line: str) -> Row:
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
        problem = _out_of_unit(row)
        if problem is not None:
            raise BadResults(f"{path}: {problem}")


def _out_of_unit(row: Row) -> str | None:
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
