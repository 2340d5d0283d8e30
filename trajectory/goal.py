"""Which way a score should go, in words: read by `status`, which must not import the chart's data models."""

from __future__ import annotations


def better(goal: str) -> str:
    """How a reader should read the numbers: a metric's goal may be to go down (val_bpb)."""
    return "lower is better" if goal == "minimize" else "higher is better"
