"""Each test's score in one run directory, from its index.jsonl (AgentV's results: one row per test
attempt), for the page's drill-down into which tests changed between two cycles.

Read leniently: the page must render whatever a crashed or foreign run left; a row without a test id
or a numeric score is skipped. A run directory's results never change once its cycle is decided, so
reads are kept, by the file's size and modification time: the live page is rewritten every few
seconds and would otherwise read every run's results each time. The daemon's live page keeps them on
disk (`Kept`), eight bytes a line in memory: each run's scores held in memory for good were a
long night's growth (0.44 KiB a cycle, bench/heap_probe.py). A page drawn once reads through a small
cache in memory.
"""

from __future__ import annotations

import bisect
import json
import math
import os
from array import array
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from stat import S_ISREG
from typing import cast

from autoresearch.plumbing import jsonlines
from autoresearch.trajectory.spill import ByPlace, Spilled

INDEX = "index.jsonl"
DIGITS = 6  # more than the page shows; a mean of repeats such as 1/3 stays short in the page's data


Key = tuple[str, int, int]  # index.jsonl's path, modification time and size


Pairs = tuple[tuple[str, float], ...]  # (test_id, score), in the order the file first names each test


def read(run_dir: str | Path) -> dict[str, float]:
    """test_id -> its mean score over the rows of the run (repeats and samples average out)."""
    return dict(pairs(run_dir))


def pairs(run_dir: str | Path) -> Pairs:
    """`read`'s scores as the pairs they are kept as."""
    key = _key(run_dir)
    return () if key is None else _read(*key)


def _key(run_dir: str | Path) -> Key | None:
    """One `stat` and no `pathlib`: the live page asks it of every run each redraw."""
    path = os.path.join(run_dir, INDEX)
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # no such file, or a name no file can have
        return None
    if not S_ISREG(st.st_mode):
        return None
    return (path, st.st_mtime_ns, st.st_size)


class Kept:
    """The live page's reads, each line's run by the line's place in the night: the scores on disk
    (`ByPlace`) with the key they were read under. A key that moved (another night's file in the same place,
    results rewritten) is read again."""

    def __init__(self, folder: Path):
        self._kept: ByPlace[Key, tuple[tuple[str, float], ...]] = ByPlace(folder, _read_back)

    def read(self, place: int, run_dir: str | Path) -> dict[str, float]:
        return dict(self.pairs(place, run_dir))

    def pairs(self, place: int, run_dir: str | Path) -> Pairs:
        key = _key(run_dir)
        if key is None:
            return ()
        scores = self._kept.get(place, key)
        if scores is None:
            scores = _from_file(key[0])
            self._kept.put(place, key, scores)
        return scores

    def close(self) -> None:
        self._kept.close()


class Measured(Mapping[int, dict[str, float]]):
    """Each measured cycle's scores, for one page: cycle -> test_id -> score, as a dict would map them (a
    cycle listed twice, in a file edited by hand, maps to its last scores). Kept as `marshal`'s bytes in
    one buffer (`Spilled` in memory) and made again when asked: a dict per cycle of a long night, held
    while the page was drawn, was a third of what the live page held at once."""

    def __init__(self) -> None:
        self._scores: Spilled[Pairs] = Spilled(None, _pairs_back)
        self._cycles = array("q")
        self._ascending = True  # as the daemon writes them: then a cycle is found by bisection of `_cycles`
        self._order: array[int] | None = None  # else the items sorted by cycle, made when first needed
        self.tests: set[str] = set()  # every test named: the page's payload lists them first

    def add(self, cycle: int, scores: Pairs) -> None:
        if self._cycles and cycle <= self._cycles[-1]:
            self._ascending = False
        self._scores.append(scores)
        self._cycles.append(cycle)
        self._order = None
        self.tests.update(test for test, _ in scores)

    def _item(self, cycle: object) -> int:
        """The last item of `cycle`, or -1."""
        if type(cycle) is not int:  # (a cycle is an int: the lines' models say so)
            return -1
        cycles = self._cycles
        if self._ascending:
            at = bisect.bisect_left(cycles, cycle)
            return at if at < len(cycles) and cycles[at] == cycle else -1
        if self._order is None:
            self._order = array("q", sorted(range(len(self._cycles)), key=self._cycles.__getitem__))
        at = bisect.bisect_right(self._order, cycle, key=self._cycles.__getitem__) - 1
        return self._order[at] if at >= 0 and self._cycles[self._order[at]] == cycle else -1

    def __getitem__(self, cycle: int) -> dict[str, float]:
        item = self._item(cycle)
        if item < 0:
            raise KeyError(cycle)
        return dict(self._scores[item])

    def __contains__(self, cycle: object) -> bool:
        return self._item(cycle) >= 0

    def __iter__(self) -> Iterator[int]:
        return (cycle for item, cycle in enumerate(self._cycles) if self._item(cycle) == item)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _pairs_back(value: object) -> Pairs:
    return cast(Pairs, value)  # marshal reads back the tuples it wrote


def _read_back(value: object) -> tuple[Key, tuple[tuple[str, float], ...]]:
    return cast(tuple[Key, tuple[tuple[str, float], ...]], value)  # marshal reads back the tuples it wrote


@lru_cache(maxsize=64)  # a page drawn once, a report: a few reads of the same files
def _read(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, float], ...]:
    return _from_file(path)


def _from_file(path: str) -> tuple[tuple[str, float], ...]:
    sums: dict[str, list[float]] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ()
    for line in jsonlines.lines(text):
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
