"""Several samples of one eval as one result set: per-test means, with every sample kept.

A run directory that holds more than one sample keeps each in `sample-<n>/`
and an index.jsonl whose rows are the per-test means (so `compare` and AgentV
tools read it as one run) plus `samples`, the per-sample scores in order.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from runs.results import INDEX


def sample_dir(run_dir: Path, n: int) -> Path:
    """Where sample `n` (1-based) of a run goes."""
    return run_dir / f"sample-{n}"


def merge(samples: list[list[dict]]) -> list[dict]:
    """One row per test: the last sample's row, its score the mean of the samples' scores for that
    test, `samples` listing them (one per sample run) and `cost_usd` their sum.

    A built-in runner's row already combines its attempts (`repeat_strategy`); here it counts
    as one sample with its combined score."""
    merged: dict[str, dict] = {}
    scores: dict[str, list[float]] = {}
    costs: dict[str, float] = {}
    for rows in samples:
        latest = {row["test_id"]: row for row in rows}  # the last duplicate wins, as in compare
        for test_id, row in latest.items():
            merged[test_id] = row
            scores.setdefault(test_id, []).append(float(row["score"]))  # one value per sample run
            cost = row.get("cost_usd")
            costs[test_id] = costs.get(test_id, 0.0) + (float(cost) if isinstance(cost, (int, float)) else 0.0)
    out = []
    for test_id, row in merged.items():
        values = scores[test_id]
        out.append({**row, "score": sum(values) / len(values), "samples": values, "cost_usd": costs[test_id]})
    return out


def write_index(run_dir: Path, rows: list[dict]) -> None:
    """Replace run_dir/index.jsonl atomically: a crash leaves the old file or the new, never half."""
    run_dir.mkdir(parents=True, exist_ok=True)
    tmp = run_dir / (INDEX + ".tmp")
    tmp.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    os.replace(tmp, run_dir / INDEX)
