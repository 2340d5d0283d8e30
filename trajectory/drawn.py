"""What the trajectory page draws of each iterations.jsonl line, and the live page's reader of them.

The page reads two dozen of a line's fifty-odd fields. A whole `Iteration` is about 3 KiB in memory; the
daemon redraws the live page every few seconds all night, and reading every line into models each time
made the page's peak, and with it the resident set that never shrinks back, grow with the night; keeping
a small row per line in memory instead still held about 0.9 KiB a line for good. So the live page writes
what it draws of each line to disk once, as the line is read (`Rows`, from where its last read stopped,
into a `Spill`), and makes a `Row` of it again each time a part of the page reads it. The page's parts
read a `Drawn` line: a `Row`, or the `Iteration` itself for a page drawn once (`autoresearch chart`, the
tests), with the same HTML either way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol, cast

from autoresearch.trajectory.iterations import Candidate, Iteration, Partial, Tail, parsed
from autoresearch.trajectory.spill import Spilled

NONE: Mapping[str, float] = MappingProxyType({})


class DrawnCandidate(Protocol):
    """What the chart draws of one of a cycle's parallel candidates (see trajectory.candidates)."""

    @property
    def index(self) -> int: ...
    @property
    def decision(self) -> str: ...
    @property
    def strategy(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def merge_of(self) -> Sequence[int] | None: ...
    @property
    def parent(self) -> str | None: ...


class Drawn(Protocol):
    """What the page reads of a line; the fields mean what `Iteration`'s do."""

    @property
    def cycle(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def decision(self) -> str: ...
    @property
    def cost_usd(self) -> float: ...
    @property
    def assertions(self) -> Mapping[str, float]: ...
    @property
    def mutation(self) -> str: ...
    @property
    def run_dir(self) -> str: ...
    @property
    def timestamp(self) -> str: ...
    @property
    def duration_s(self) -> float | None: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def commit(self) -> str | None: ...
    @property
    def error(self) -> str | None: ...
    @property
    def error_reason(self) -> str | None: ...
    @property
    def rebaseline(self) -> bool | None: ...
    @property
    def wins(self) -> int | None: ...
    @property
    def losses(self) -> int | None: ...
    @property
    def ties(self) -> int | None: ...
    @property
    def mutation_cost_usd(self) -> float | None: ...
    @property
    def holdout_score(self) -> float | None: ...
    @property
    def candidates(self) -> Sequence[DrawnCandidate] | None: ...
    @property
    def objectives(self) -> Mapping[str, float] | None: ...
    @property
    def gate(self) -> str | None: ...
    @property
    def partial(self) -> Partial | None: ...


@dataclass(frozen=True, slots=True)
class CandidateRow:
    index: int
    decision: str
    strategy: str
    summary: str
    score: float | None
    merge_of: tuple[int, ...] | None
    parent: str | None


class Row(NamedTuple):
    """A line as the page draws it, made from the spill when read (see `Rows`): a named tuple, which is
    made six times faster than a frozen dataclass of its 23 fields, since the live page makes every row
    again for each pass over the night (about 3 us a row as a dataclass, 20 passes a redraw)."""

    cycle: int
    score: float
    decision: str
    cost_usd: float
    assertions: Mapping[str, float]
    mutation: str
    run_dir: str
    timestamp: str
    duration_s: float | None
    reason: str | None  # drawn only for a line a gate blocked: None on the others
    commit: str | None
    error: str | None
    error_reason: str | None
    rebaseline: bool | None
    wins: int | None
    losses: int | None
    ties: int | None
    mutation_cost_usd: float | None
    holdout_score: float | None
    candidates: tuple[CandidateRow, ...] | None
    objectives: Mapping[str, float] | None
    gate: str | None
    partial: Partial | None  # computed once from `tests`, `skipped_tests` and the counts, which are not kept


def _packed(r: Iteration) -> tuple[object, ...]:
    """What the page draws of a line as plain values `marshal` writes, in `Row`'s order."""
    return (
        r.cycle,
        r.score,
        r.decision,
        r.cost_usd,
        r.assertions,
        r.mutation,
        r.run_dir,
        r.timestamp,
        r.duration_s,
        r.reason if r.gate else None,
        r.commit,
        r.error,
        r.error_reason,
        r.rebaseline,
        r.wins,
        r.losses,
        r.ties,
        r.mutation_cost_usd,
        r.holdout_score,
        None if r.candidates is None else tuple(_candidate(c) for c in r.candidates),
        r.objectives,
        r.gate,
        None if r.partial is None else (r.partial.scored, r.partial.total),
    )


def _candidate(c: Candidate) -> tuple[object, ...]:
    merge_of = None if c.merge_of is None else tuple(c.merge_of)
    return (c.index, c.decision, c.strategy, c.summary, c.score, merge_of, c.parent)


def _unpacked(value: Any) -> Row:
    """The row `_packed` wrote. No assertions read as one shared empty mapping. (Made for every line at
    every pass of a redraw: `tuple.__new__` rather than `Row._make`, no `cast` call.)"""
    v = list(value)
    v[4] = v[4] or NONE
    if v[19] is not None:
        v[19] = tuple(CandidateRow(*c) for c in v[19])
    if v[22] is not None:
        v[22] = Partial(*v[22])
    return tuple.__new__(Row, v)


class Night(Spilled[Row]):
    """The rows `Rows` read, and whether their cycles ascend (as a night's do), kept as they are appended:
    the table finds each line's changelog as it reads them when they do (page_parts), and checking it on
    the rows was a pass over the night, read back from disk, at every redraw."""

    def __init__(self, folder: Path):
        super().__init__(folder, _unpacked)
        self.ascending = True
        self._last: int | None = None

    def append(self, values: object) -> None:
        cycle = cast(tuple[int, ...], values)[0]
        super().append(values)
        self.ascending = self.ascending and (self._last is None or self._last < cycle)
        self._last = cycle

    def clear(self) -> None:
        super().clear()
        self.ascending, self._last = True, None

    def close(self) -> None:
        super().close()
        self.ascending, self._last = True, None


class Rows:
    """The live page's rows of iterations.jsonl: each line read once, as it is appended (`Tail`), and what
    the page draws of it kept on disk (`Spilled`), so the daemon holds eight bytes a line and a redraw one
    row at a time. A file that shrank or was replaced is read from its start again. A last line not yet
    ended waits for its end (`iterations.read` would count it unreadable meanwhile): the daemon appends
    whole lines, and cuts a torn one before the next."""

    def __init__(self, path: Path):
        self._tail = Tail(path)
        self._rows = Night(path.parent)
        self._bad = 0

    def read(self) -> tuple[Night, int]:
        """(every line's row so far, how many lines did not parse). The rows are not held: each pass over
        them reads their bytes back from disk and makes each row as it comes, so a redraw holds one row at
        a time, not the night's (about 520 bytes a line, the largest part of the peak that grew with the
        night). The sequence is valid until the next `read`."""
        text, restarted = self._tail.new_text()
        if restarted:
            self._rows.clear()
            self._bad = 0
        for record in parsed(text):
            if record is None:
                self._bad += 1
            else:
                self._rows.append(_packed(record))
        return self._rows, self._bad

    def close(self) -> None:
        """Drop the rows; a later `read` reads the file from its start again."""
        self._rows.close()
        self._tail = Tail(self._tail.path)
        self._bad = 0
