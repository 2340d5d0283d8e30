"""What the trajectory page draws of each iterations.jsonl line, and the live page's reader of them.

The page reads two dozen of a line's fifty-odd fields. A whole `Iteration` is about 3 KiB in memory; the
daemon redraws the live page every few seconds all night, and reading every line into models each time
made the page's peak, and with it the resident set that never shrinks back, grow with the night. So the
live page keeps one small `Row` per line, made once as the line is read (`Rows`, from where its last read
stopped), and the page's parts read a `Drawn` line: a `Row`, or the `Iteration` itself for a page drawn
once (`autoresearch chart`, the tests), with the same HTML either way.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

from autoresearch.trajectory.iterations import Candidate, Iteration, Partial, Tail, parsed

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


@dataclass(frozen=True, slots=True)
class Row:
    """A line as the page draws it: the record's values themselves, not copies, and its names shared."""

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


def row(r: Iteration) -> Row:
    return Row(
        r.cycle,
        r.score,
        r.decision,
        r.cost_usd,
        _named(r.assertions),
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
        None if r.objectives is None else _named(r.objectives),
        r.gate,
        r.partial,
    )


def _named(values: dict[str, float]) -> Mapping[str, float]:
    """The names as one string each however many lines repeat them (each line read makes its own copies):
    fifty assertions' texts on every line would otherwise be most of what a row holds. No names, one
    empty mapping for every row."""
    if not values:
        return NONE
    return {sys.intern(name): value for name, value in values.items()}


def _candidate(c: Candidate) -> CandidateRow:
    merge_of = None if c.merge_of is None else tuple(c.merge_of)
    return CandidateRow(c.index, c.decision, c.strategy, c.summary, c.score, merge_of, c.parent)


class Rows:
    """The live page's rows of iterations.jsonl: each read once, as it is appended (`Tail`), and kept as a
    `Row`, so a redraw costs the new lines and holds one record at a time. A file that shrank or was
    replaced is read from its start again. A last line not yet ended waits for its end (`iterations.read`
    would count it unreadable meanwhile): the daemon appends whole lines, and cuts a torn one before the next."""

    def __init__(self, path: Path):
        self._tail = Tail(path)
        self._rows: list[Row] = []
        self._bad = 0

    def read(self) -> tuple[Sequence[Row], int]:
        """(every line's row so far, how many lines did not parse)."""
        text, restarted = self._tail.new_text()
        if restarted:
            self._rows, self._bad = [], 0
        for record in parsed(text):
            if record is None:
                self._bad += 1
            else:
                self._rows.append(row(record))
        return self._rows, self._bad
