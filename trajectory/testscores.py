"""Each test's score in one run directory, from its index.jsonl (AgentV's results: one row per test
attempt), for the page's drill-down into which tests changed between two cycles.

Read leniently: the page must render whatever a crashed or foreign run left; a row without a test id
or a numeric score is skipped. A run directory's results never change once its cycle is decided, so
reads are cached by the file's size and modification time: the live page is rewritten every few
seconds and would otherwise read every run's results each time.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

INDEX = "index.jsonl"
DIGITS = 6  # more than the page shows; a mean of repeats such as 1/3 stays short in the page's data


def read(run_dir: Path) -> dict[str, float]:
    """test_id -> its mean score over the rows of the run (repeats and samples average out)."""
    path = run_dir / INDEX
    try:
        st = path.stat()
    except OSError:
        return {}
    if not path.is_file():
        return {}
    return dict(_read(str(path), st.st_mtime_ns, st.st_size))


@lru_cache(maxsize=4096)
def _read(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, float], ...]:
    sums: dict[str, list[float]] = {}
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    for line in text.splitlines():
        row = _row(line)
        if row:
            sums.setdefault(row[0], []).append(row[1])
    return tuple((test, round(sum(v) / len(v), DIGITS)) for test, v in sums.items())


def _row(line: str) -> tuple[str, float] | None:
    try:
        row = json.loads(line)
    except ValueError:
        return None
    if not isinstance(row, dict):
        return None
    test, score = row.get("test_id"), row.get("score")
    if not isinstance(test, str) or isinstance(score, bool) or not isinstance(score, (int, float)):
        return None
    return (test, float(score)) if math.isfinite(score) else None
