"""Several samples of one eval as one result set: per-test means, with every sample kept.

A run directory that holds more than one sample keeps each in `sample-<n>/`
and an index.jsonl whose rows are the per-test means (so `compare` and AgentV
tools read it as one run) plus `samples`, the per-sample scores in order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autoresearch.plumbing import atomic
from autoresearch.runs.results import INDEX, Row


def sample_dir(run_dir: Path, n: int) -> Path:
    """Where sample `n` (1-based) of a run goes."""
    return run_dir / f"sample-{n}"


def merge(samples: list[list[Row]]) -> list[Row]:
    """One row per test: the last sample's row, its score the mean of the samples' scores for that
    test, `samples` listing them (one per sample run), `cost_usd` their sum, and each grader's
    score in `scores` the mean over the samples that ran it (they make the pass rates and the chart).

    A built-in runner's row already combines its attempts (`repeat_strategy`); here it counts
    as one sample with its combined score."""
    by_test: dict[str, list[Row]] = {}
    for rows in samples:
        for test_id, row in {row["test_id"]: row for row in rows}.items():  # the last duplicate wins, as in compare
            by_test.setdefault(test_id, []).append(row)
    return [_merged(rows) for rows in by_test.values()]


def _merged(rows: list[Row]) -> Row:
    """One test's rows, one per sample, as one row."""
    values = [float(row["score"]) for row in rows]
    cost = sum(float(c) for row in rows if isinstance(c := row.get("cost_usd"), (int, float)))
    out = {**rows[-1], "score": sum(values) / len(values), "samples": values, "cost_usd": cost}
    if isinstance(rows[-1].get("scores"), list):
        out["scores"] = _grader_means(rows)
    return out


def _grader_means(rows: list[Row]) -> list[dict[str, Any]]:
    """The last sample's graders, each scoring the mean of what it scored in every sample (a grader
    is known by its name and type, as the pass rates know it)."""
    scored: dict[tuple[object, object], list[float]] = {}
    for row in rows:
        for grader in _graders(row):
            scored.setdefault(_key(grader), []).append(float(grader["score"]))
    out = []
    for grader in rows[-1]["scores"]:
        values = scored.get(_key(grader)) if isinstance(grader, dict) else None
        out.append({**grader, "score": sum(values) / len(values)} if values else grader)
    return out


def _graders(row: Row) -> list[dict[str, Any]]:
    scores = row.get("scores")
    return [
        g
        for g in (scores if isinstance(scores, list) else [])
        if isinstance(g, dict) and isinstance(g.get("score"), (int, float)) and not isinstance(g.get("score"), bool)
    ]


def _key(grader: dict[str, Any]) -> tuple[object, object]:
    return grader.get("name"), grader.get("type")


def write_index(run_dir: Path, rows: list[Row]) -> None:
    """Replace run_dir/index.jsonl atomically: a crash leaves the old file or the new, never half."""
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic.write_text(run_dir / INDEX, "".join(json.dumps(row) + "\n" for row in rows), durable=False)
