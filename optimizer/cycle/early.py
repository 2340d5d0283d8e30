"""Exact early discard under `wins-losses`: stop evaluating once the remaining tests cannot save the candidate.

The built-in runner streams per-test results and can be cancelled; this watch
counts wins and losses against HEAD's rows as they arrive. The decision is the
one a full evaluation gives; only the spend changes.
"""

from __future__ import annotations

from autoresearch.optimizer.cycle.gating import Row, Rows
from autoresearch.policies.keep import cannot_win
from autoresearch.runs.compare import classify


class EarlyDiscard:
    def __init__(self, baseline_rows: Rows, threshold: float, simpler: bool):
        self.baseline = {row["test_id"]: float(row["score"]) for row in baseline_rows}
        self.threshold, self.simpler = threshold, simpler
        self.seen: set[str] = set()
        self.wins = self.losses = 0

    @property
    def remaining(self) -> int:
        """Baseline tests not seen yet (an upper bound: the candidate may not run them all)."""
        return len(self.baseline) - len(self.seen)

    def __call__(self, row: Row) -> bool:
        """Take one candidate row; True once the candidate can no longer be kept."""
        test_id = row["test_id"]
        if test_id in self.baseline and test_id not in self.seen:
            self.seen.add(test_id)
            outcome = classify(float(row["score"]) - self.baseline[test_id], self.threshold)
            self.wins += outcome == "win"
            self.losses += outcome == "loss"
        return cannot_win(self.wins, self.losses, self.remaining, self.simpler)
