"""Per-test comparison of two result sets, exactly as `agentv compare` 4.42.4 computes it.

Pairing, counting and rounding follow AgentV's TypeScript to the letter
(including its JavaScript `Math.round`), because users check our decisions with
`agentv compare` on the same files and the two must agree.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from autoresearch.runs.results import Row, TestScore


class Matched(NamedTuple):
    """One test in both files (a tuple: `compare` makes one per test, 100,000 of them for a large run)."""

    test_id: str
    score1: float
    score2: float
    delta: float
    normalized_gain: float | None
    outcome: str


@dataclass(frozen=True)
class Summary:
    total: int
    matched: int
    wins: int
    losses: int
    ties: int
    mean_delta: float
    mean_normalized_gain: float | None


@dataclass(frozen=True)
class Comparison:
    matched: list[Matched]
    unmatched: dict[str, int]
    summary: Summary

    def to_json(self) -> dict[str, Any]:
        return {
            "matched": [m._asdict() for m in self.matched],
            "unmatched": dict(self.unmatched),
            "summary": asdict(self.summary),
        }


def js_round3(value: float) -> float:
    """`Math.round(value * 1000) / 1000`: halves go up (towards +inf), -0 becomes 0."""
    scaled = value * 1000
    rounded = math.floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1
    return (rounded / 1000) + 0.0


def classify(delta: float, threshold: float) -> str:
    if delta >= threshold:
        return "win"
    if delta <= -threshold:
        return "loss"
    return "tie"


def normalized_gain(baseline: float, candidate: float) -> float | None:
    """Hake's gain: improvement relative to the headroom; undefined at a perfect baseline."""
    if baseline >= 1.0:
        return None
    return (candidate - baseline) / (1 - baseline)


def compare(baseline_rows: list[Row], candidate_rows: list[Row], threshold: float = 0.1) -> Comparison:
    """Pair tests by test_id (last duplicate wins, first position kept) and count wins/losses/ties."""
    return compare_scores(_scores(baseline_rows), _scores(candidate_rows), threshold)


def compare_scores(baseline: list[TestScore], candidate: list[TestScore], threshold: float = 0.1) -> Comparison:
    """`compare` on each row's id and score alone, as `load_unit_scores` reads them from files of 100,000 rows."""
    base = dict(baseline)  # last duplicate wins, first position kept: a dict's own rule
    cand = dict(candidate)
    matched = []
    for test_id, score1 in base.items():
        if test_id in cand:
            score2 = cand[test_id]
            delta = score2 - score1
            matched.append(
                Matched(test_id, score1, score2, delta, normalized_gain(score1, score2), classify(delta, threshold))
            )
    gains = [m.normalized_gain for m in matched if m.normalized_gain is not None]
    mean_delta = sum(m.delta for m in matched) / len(matched) if matched else 0.0
    outcomes = Counter(m.outcome for m in matched)
    summary = Summary(
        total=len(baseline) + len(candidate),
        matched=len(matched),
        wins=outcomes["win"],
        losses=outcomes["loss"],
        ties=outcomes["tie"],
        mean_delta=js_round3(mean_delta),
        mean_normalized_gain=js_round3(sum(gains) / len(gains)) if gains else None,
    )
    unmatched = {  # a baseline row is unmatched when its id is not in the candidate, and the other way round
        "file1": sum(test_id not in cand for test_id, _ in baseline),
        "file2": sum(test_id not in base for test_id, _ in candidate),
    }
    return Comparison(matched, unmatched, summary)


def _scores(rows: list[Row]) -> list[TestScore]:
    return [(row["test_id"], row["score"]) for row in rows]
