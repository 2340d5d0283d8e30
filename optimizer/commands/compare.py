"""`autoresearch compare BASE CAND`: agentv compare's numbers and text, without its pipe truncation."""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import asdict
from json.encoder import encode_basestring
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.plumbing.errors import OK, REGRESSION
from autoresearch.plumbing.surrogates import escaped

if TYPE_CHECKING:
    from autoresearch.runs.compare import Comparison
    from autoresearch.runs.results import TestScore


def command(
    baseline: str = typer.Argument(..., help="Baseline: a run directory or any .jsonl result file."),
    candidate: str = typer.Argument(..., help="Candidate: a run directory or any .jsonl result file."),
    as_json: bool = typer.Option(False, "--json", help="Print agentv compare's JSON (snake_case)."),
    threshold: float = typer.Option(0.1, "--threshold", "-t", help="Win/loss threshold per test."),
) -> int:
    """Compare two result sets test by test, as `agentv compare` 4.42.4.

    Exit codes: 0 no regression (mean_delta >= 0), 1 regression, 30 bad input (a file with no rows,
    a score that is not a finite number from 0 to 1).
    """
    from autoresearch.runs.compare import compare_scores
    from autoresearch.runs.compare_table import table

    result = compare_scores(_scores(Path(baseline)), _scores(Path(candidate)), threshold)
    if as_json:
        typer.echo(escaped(json_text(result)))  # a lone surrogate as JSON.stringify writes it
    else:  # the paths as typed, as AgentV prints them; colours only where AgentV uses them
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        typer.echo(table(result, baseline, candidate, color))
    return OK if result.summary.mean_delta >= 0 else REGRESSION


def _scores(source: Path) -> list[TestScore]:
    """A side's tests and scores; an empty side would compare as "no regression" and exit 0 on nothing."""
    from autoresearch.runs.errors import BadResults
    from autoresearch.runs.results import index_path
    from autoresearch.runs.unit_scores import load_unit_scores

    scores = load_unit_scores(source)
    if not scores:
        raise BadResults(f"{index_path(source)}: no result rows")
    return scores


def json_text(result: Comparison) -> str:
    """`json.dumps(_js_numbers(result.to_json()), indent=2, ensure_ascii=False)`, byte for byte, at C speed.

    json's indenting encoder is pure Python: on 100,000 matched tests it, `asdict` and `_js_numbers` took longer
    than reading both files. Each matched test is a flat record, written here by an f-string.
    """
    rest = {"unmatched": dict(result.unmatched), "summary": asdict(result.summary)}
    tail = json.dumps(_js_numbers(rest), indent=2, ensure_ascii=False)
    number = _NumberTexts()
    entries = ",\n".join(  # an f-string per test: `str.format` and a call per number took twice as long
        f"""    {{
      "test_id": {encode_basestring(test_id)},
      "score1": {number[score1]},
      "score2": {number[score2]},
      "delta": {number[delta]},
      "normalized_gain": {number[gain]},
      "outcome": "{outcome}"
    }}"""  # the outcome is win, loss or tie: nothing to escape
        for test_id, score1, score2, delta, gain, outcome in result.matched
    )
    matched = f'  "matched": [\n{entries}\n  ],\n' if entries else '  "matched": [],\n'
    return "{\n" + matched + tail[2:]


class _NumberTexts(dict[float | None, str]):
    """Each number's text, made once per distinct value: scores repeat (0, 0.5, 1), and so do their deltas.

    Equal numbers print alike (1 and 1.0 as 1, -0.0 and 0 as 0), as they do in JavaScript, so a value is its key.
    """

    def __missing__(self, value: float | None) -> str:
        text = self[value] = _js_number(value)
        return text


def _js_number(value: float | None) -> str:
    """One number as JavaScript's JSON.stringify writes it; every number here is finite (the rows were checked).

    Both write the shortest digits that read back as the same number, but Python's `repr` turns to an exponent
    below 1e-4 (`1e-05`, `1e-07`) where JavaScript does below 1e-6, and without the exponent's leading zero
    (`0.00001`, `1e-7`). Above, integers are written whole (1 not 1.0): no number here reaches JavaScript's
    exponents at 1e21 (a score is at most 1, a normalized gain at most 1 / 2**-53 in size).
    """
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    mantissa, _, exponent = repr(value).partition("e")
    if not exponent:
        return mantissa
    power = int(exponent)
    if power < -6:
        return f"{mantissa}e{power}"
    sign, digits = ("-", mantissa[1:]) if mantissa.startswith("-") else ("", mantissa)
    return f"{sign}0.{'0' * (-power - 1)}{digits.replace('.', '')}"


def _js_numbers(value: object) -> object:
    """Print numbers as JavaScript's JSON.stringify does (1 not 1.0), so outputs diff cleanly."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_numbers(v) for v in value]
    return value
