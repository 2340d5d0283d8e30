"""`objectives:` weights: one composite score from correctness and what the answers cost.

Numbers in, a score out. Correctness (the eval's own score, 0 to 1) counts as
it is. Every other objective is normalised against HEAD's value of the same
objective: with r the candidate's value relative to HEAD's, taken the way that
makes a gain larger than 1 (HEAD / candidate for cost, latency, tokens, tool
calls and size, candidate / HEAD for robustness), the objective contributes
r / (1 + r). HEAD itself scores 0.5 on each; half the cost scores 0.67, twice
the cost 0.33; nothing at all scores 1 (or 0 where the better direction is up).
The map is symmetric in log r and bounded in 0..1, so the composite stays on
the eval's 0..1 scale and a win is still a rise of `policy.threshold`.
An objective missing on either side counts as unchanged (0.5).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Literal

Better = Literal["higher", "lower"]

# name -> which way is better. `latency` is a test's duration (ms); `tokens` input + output; `robustness` the
# pass rate across a test's repeats; `size` the artifact's (lines of a file, bytes of a directory).
OBJECTIVES: dict[str, Better] = {
    "correctness": "higher",
    "cost": "lower",
    "latency": "lower",
    "tokens": "lower",
    "tool_calls": "lower",
    "robustness": "higher",
    "size": "lower",
}
UNCHANGED = 0.5


def weights_problem(weights: Mapping[str, object]) -> tuple[str, str] | None:
    """(the field, what is wrong with it) for weights that cannot make a composite, or None."""
    for name, weight in weights.items():
        if name not in OBJECTIVES:
            return f"objectives.{name}", f"unknown objective (known: {', '.join(OBJECTIVES)})"
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight):
            return f"objectives.{name}", f"{weight!r} is not a number"
        if weight < 0:
            return f"objectives.{name}", f"{weight} is negative; a weight is 0 or more"
    total = sum(float(w) for w in weights.values() if isinstance(w, (int, float)))  # all of them, checked above
    if weights and not total > 0:
        return "objectives", "the weights sum to 0; give at least one a positive weight"
    if not math.isfinite(total):
        return "objectives", "the weights sum to more than a number holds; use smaller ones"
    return None


def normalise(name: str, value: float | None, head: float | None) -> float:
    """One objective on the 0..1 scale: correctness as it is, any other relative to HEAD's value."""
    if name == "correctness":
        return UNCHANGED if value is None else value
    if value is None or head is None or value < 0 or head < 0:
        return UNCHANGED  # (a negative duration or count measures nothing)
    good, other = (value, head) if OBJECTIVES[name] == "higher" else (head, value)
    if good == 0:
        return UNCHANGED if other == 0 else 0.0
    return 1 / (1 + other / good)  # r / (1 + r) with r = good / other, without overflowing to inf / inf


def composite(weights: Mapping[str, float], values: Mapping[str, float], head: Mapping[str, float]) -> float:
    """The weighted mean of the normalised objectives."""
    total = sum(weights.values())
    return sum(w * normalise(name, values.get(name), head.get(name)) for name, w in weights.items()) / total
