"""Reading only each row's id and score from large result files, checked as the exact reader checks them.

`compare` reads two files of up to 100,000 rows and needs nothing else of a row; a typed decoder (msgspec) makes
the checks while it parses and skips the other fields without building them. Its own module: msgspec's import
(about 14 ms) is paid by `compare` alone, not by every `run` that reads results.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import UNSET, UnsetType

from autoresearch.plumbing import jsonlines
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import TestScore, index_path, out_of_unit, parse_row, read_bytes, result_text


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
                row = parse_row(path, number, line)
                out_of_range = out_of_range or out_of_unit(row)
                score = (row["test_id"], row["score"])
            scores.append(score)
    if out_of_range is not None:
        raise BadResults(f"{path}: {out_of_range}")
    return scores


def _lines(path: Path) -> tuple[list[str], bool]:
    """The file's lines, and whether it may hold a huge number (then each line is asked before it is decoded).

    The file's bytes and its text are let go before the caller reads the lines: each is as large as the file.
    """
    data = read_bytes(path)
    doubtful = _may_hold_a_huge_number(data)
    text = result_text(path, data)
    del data
    return jsonlines.lines(text), doubtful


_Unit = Annotated[float, msgspec.Meta(ge=0, le=1)]


class _Grader(msgspec.Struct, gc=False):
    """A grader's entry in a row's `scores`: only its score is checked (0..1)."""

    score: _Unit | None | UnsetType = UNSET


class _ScoredRow(msgspec.Struct, gc=False):
    """The fields of a row `compare` reads or checks; the decoder skips the rest without building them.

    The types are the checks `parse_row` and `out_of_unit` make, so the decoder makes them while it parses: a
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
    `parse_row` would give, whose checks pass. Anything else is read again by `parse_row`, the one place that
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
