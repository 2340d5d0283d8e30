"""The result cache: one eval sample's rows, keyed by (eval, artifact, sample index).

Each entry is a whole index.jsonl (one row per test, with its target), so a
lookup by (eval definition, artifact content, target, test id, sample index)
is a file read. Entries are written atomically and never changed: a crash
leaves an entry whole or absent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from runs.errors import BadResults
from runs.results import load_rows


class SampleCache:
    def __init__(self, root: Path, eval_key: str):
        self.root = root / eval_key

    def _path(self, artifact: str, n: int) -> Path:
        return self.root / f"{artifact}-sample-{n}.jsonl"

    def get(self, artifact: str, n: int) -> list[dict] | None:
        """Sample `n` (1-based) of this artifact, or None when it was never stored (or is unreadable)."""
        path = self._path(artifact, n)
        if not path.is_file():
            return None
        try:
            return load_rows(path)
        except BadResults:
            return None

    def put(self, artifact: str, n: int, rows: list[dict]) -> None:
        path = self._path(artifact, n)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        os.replace(tmp, path)

    def count(self, artifact: str, after: int = 0) -> int:
        """How many consecutive samples of this artifact are stored from index `after + 1` on."""
        n = 0
        while self._path(artifact, after + n + 1).is_file():
            n += 1
        return n
