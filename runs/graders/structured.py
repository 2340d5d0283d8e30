"""Graders on JSON answers: `is-json`, and `field-accuracy` against the expected object (AgentV's rules)."""

from __future__ import annotations

import json
import math
import re
from typing import Any, ClassVar, Literal

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Context, Score, assertion, parsed
from autoresearch.runs.graders.dates import same_day
from autoresearch.runs.graders.options import Options


def json_from_text(text: str) -> Any:
    """AgentV's lenient parse: drop ``` fences, take the outermost {...}, then JSON.parse."""
    cleaned = re.sub(r"```json\n?|```", "", text).strip()
    blob = re.search(r"\{[\s\S]*\}", cleaned)
    return json.loads(blob.group(0) if blob else cleaned)


class FieldSpec(Options):
    path: str
    match: Literal["exact", "numeric_tolerance", "date"] = "exact"
    required: bool = True
    weight: float = 1.0
    tolerance: float = 0.0
    relative: bool = False
    formats: list[str] | None = None


class FieldOptions(Options):
    fields: list[FieldSpec]
    aggregation: Literal["weighted_average", "all_or_nothing"] = "weighted_average"


class IsJson:
    options: ClassVar[type[Options]] = Options
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        try:
            json.loads(ctx.output)
            passed = True
        except ValueError:
            passed = False
        return Score(1.0 if passed else 0.0, [assertion("Output is valid JSON", passed)])


class FieldAccuracy(IsJson):
    options = FieldOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        try:
            actual = json_from_text(ctx.output)
        except ValueError:
            return Score(0.0, [assertion("Failed to parse candidate answer as JSON", False)])
        expected = _expected_object(ctx.case.expected_output)
        if expected is None:
            return Score(0.0, [assertion("No expected data found in expected_output", False)])
        results = [_field(f, actual, expected) for f in opts.fields]
        checks = [assertion(message, score == 1.0) for score, _, message in results]
        if opts.aggregation == "all_or_nothing":
            return Score(0.0 if any(not c["passed"] for c in checks) else 1.0, checks)
        total = sum(weight for _, weight, _ in results)
        if total == 0:
            return Score(1.0 if not results else 0.0, checks)
        return Score(sum(s * w for s, w, _ in results) / total, checks)


def _expected_object(expected: Any) -> dict[str, Any] | None:
    if isinstance(expected, list):
        for message in reversed(expected):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant" and message.get("content"):
                found = _expected_object(message["content"])
                if found is not None:
                    return found
        return None
    if isinstance(expected, dict):
        return expected
    if isinstance(expected, str):
        try:
            value = json_from_text(expected)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
    return None


def _field(spec: FieldSpec, actual: Any, expected: Any) -> tuple[float, float, str]:
    """(score, weight, message) for one field, as AgentV's FieldAccuracyGrader."""
    want, got = resolve_path(expected, spec.path), resolve_path(actual, spec.path)
    if want is None:
        return 1.0, spec.weight, f"{spec.path}: no expected value"
    if got is None:
        if spec.required:
            return 0.0, spec.weight, f"{spec.path} (required, missing)"
        return 1.0, 0.0, f"{spec.path}: optional field missing"
    if spec.match == "numeric_tolerance":
        return _numeric(spec, got, want)
    if spec.match == "date":
        hit = same_day(str(got), str(want), spec.formats)
        return (1.0 if hit else 0.0), spec.weight, spec.path if hit else f"{spec.path} (date mismatch)"
    hit = js_equal(got, want)
    return (1.0 if hit else 0.0), spec.weight, spec.path if hit else f"{spec.path} (value mismatch)"


def _numeric(spec: FieldSpec, got: Any, want: Any) -> tuple[float, float, str]:
    a, b = _to_float(got), _to_float(want)
    if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)):
        return 0.0, spec.weight, f"{spec.path} (non-numeric value)"
    diff = abs(a - b)
    if spec.relative and b != 0:
        diff_for_check = diff / abs(b)
    else:
        diff_for_check = diff
    hit = diff_for_check <= spec.tolerance
    return (
        (1.0 if hit else 0.0),
        spec.weight,
        f"{spec.path} ({'within' if hit else 'outside'} tolerance: diff={diff:.2f})",
    )


def js_equal(a: Any, b: Any) -> bool:
    """Deep equality as JavaScript sees parsed JSON: 1 equals 1.0, but true does not equal 1."""
    if _number(a) and _number(b):
        return bool(a == b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(js_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(js_equal(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _to_float(value: Any) -> float | None:
    if _number(value):
        return float(value)
    if isinstance(value, str):
        match = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", value)
        return float(match.group(0)) if match else None
    return None


def resolve_path(value: Any, path: str) -> Any:
    """`a.b[0].c` into nested dicts and lists; None when any step is missing."""
    for part in (p for p in re.split(r"\.|\[|\]", path) if p):
        if isinstance(value, list) and part.isdigit():
            value = value[int(part)] if int(part) < len(value) else None
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
        if value is None:
            return None
    return value


GRADERS = {"is-json": IsJson(), "field-accuracy": FieldAccuracy()}
