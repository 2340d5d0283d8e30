"""The common grader fields and a test's score, as AgentV computes them.

A grader's score is clamped to [0, 1], inverted when `negate` (verdict and
assertions flipped too), and judged against its `threshold` (default 0.8)
unless the grader gave its own verdict (a failed required rubric item fails
whatever the score). A test's score is the weight-weighted mean of its graders
that did not skip, forced to 0 when a `required` grader scored below its
minimum (0.8 for `required: true`).
"""

from __future__ import annotations

import math
from typing import Any

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Score

DEFAULT_THRESHOLD = 0.8


def clamp(value: float) -> float:
    if not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        return 0.0
    return min(1.0, max(0.0, float(value)))


def verdict(score: float, threshold: float | None = None) -> str:
    return "pass" if score >= (DEFAULT_THRESHOLD if threshold is None else threshold) else "fail"


NEGATED = {"pass": "fail", "fail": "pass", "skip": "skip"}
REPORTED_TYPE = {"rubrics": "llm-grader"}  # AgentV runs `rubrics` as an llm-grader and reports it so


def finish(spec: GraderSpec, raw: Score) -> dict[str, Any]:
    """The per-grader entry of a result row (`scores[]`), common fields applied."""
    score = clamp(raw.score)
    assertions = [dict(a) for a in raw.assertions]
    judged = raw.verdict or verdict(score, spec.threshold)
    if spec.negate:
        score = clamp(1.0 - score)
        judged = NEGATED[judged]
        for item in assertions:
            item["passed"] = not item["passed"]
            if item.get("evidence"):
                item["evidence"] = f"[Negated] {item['evidence']}"
    entry: dict[str, Any] = {
        "name": spec.name,
        "type": REPORTED_TYPE.get(spec.type, spec.type),
        "score": score,
        "weight": spec.weight,
        "verdict": judged,
        "assertions": assertions,
    }
    if raw.details:
        entry["details"] = raw.details
    return entry


def test_score(specs: list[GraderSpec], entries: list[dict[str, Any]]) -> float:
    """Weighted mean of the scores of the graders that did not skip; 0 when a required grader missed its minimum."""
    for spec, entry in zip(specs, entries):
        if spec.required is not None and entry["score"] < spec.required:
            return 0.0
    counted = [(spec.weight, entry["score"]) for spec, entry in zip(specs, entries) if entry["verdict"] != "skip"]
    total = sum(weight for weight, _ in counted)
    if total <= 0:
        return 0.0
    return float(sum(weight * score for weight, score in counted) / total)


def skipped(entries: list[dict[str, Any]]) -> str | None:
    """Why graders skipped (AgentV makes such a test an execution_error scoring 0), or None."""
    reasons = [
        next((a["text"] for a in e["assertions"] if not a["passed"]), "Grader skipped")
        for e in entries
        if e["verdict"] == "skip"
    ]
    if not reasons:
        return None
    return reasons[0] if len(reasons) == 1 else "Graders skipped: " + " | ".join(reasons)
