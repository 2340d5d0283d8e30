"""The common grader fields and a test's score, as AgentV computes them.

A grader's score is clamped to [0, 1], inverted when `negate` (verdict and
assertions flipped too), and judged against its `threshold` (default 0.8).
A test's score is the weight-weighted mean of its graders, forced to 0 when
a `required` grader scored below its minimum (0.8 for `required: true`).
"""

from __future__ import annotations

import math
from typing import Any

from runs.evalfile.model import GraderSpec
from runs.graders.base import Score

DEFAULT_THRESHOLD = 0.8


def clamp(value: float) -> float:
    if not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        return 0.0
    return min(1.0, max(0.0, float(value)))


def verdict(score: float, threshold: float | None = None) -> str:
    return "pass" if score >= (DEFAULT_THRESHOLD if threshold is None else threshold) else "fail"


def finish(spec: GraderSpec, raw: Score) -> dict[str, Any]:
    """The per-grader entry of a result row (`scores[]`), common fields applied."""
    score = clamp(raw.score)
    assertions = [dict(a) for a in raw.assertions]
    if spec.negate:
        score = clamp(1.0 - score)
        for item in assertions:
            item["passed"] = not item["passed"]
            if item.get("evidence"):
                item["evidence"] = f"[Negated] {item['evidence']}"
    entry: dict[str, Any] = {
        "name": spec.name,
        "type": spec.type,
        "score": score,
        "weight": spec.weight,
        "verdict": verdict(score, spec.threshold),
        "assertions": assertions,
    }
    if raw.details:
        entry["details"] = raw.details
    return entry


def test_score(specs: list[GraderSpec], entries: list[dict[str, Any]]) -> float:
    """Weighted mean of the graders' scores; 0 when a required grader missed its minimum."""
    for spec, entry in zip(specs, entries):
        if spec.required is not None and entry["score"] < spec.required:
            return 0.0
    total = sum(spec.weight for spec in specs)
    if total <= 0:
        return 0.0
    return sum(spec.weight * entry["score"] for spec, entry in zip(specs, entries)) / total
