"""What an experiment's past says, read from iterations.jsonl alone.

Everything the loop needs to resume (cycle number, baseline, streaks, spend)
is derived here from the records, so a restarted daemon needs no other memory.

A night of thousands of cycles must not hold thousands of whole records: a line's model keeps every one of
its fifty fields (about 3 KiB), and holding them all was most of a long run's memory growth
(bench/run_memory.py). So a History keeps of each past line only what the loop reads (`Past`: a few
numbers and words), and whole records only for the handful it reads whole: the original, the last line,
the best, the last evaluated. Whoever needs every whole record (the chart, `report`, `cycles`, the
digest) reads them from the file. Even a `Past` a line, held for good, was about 0.2 KiB a cycle of a
long night's growth: the daemon's history keeps them on disk (`Spilled`, given a folder), eight bytes a
line in memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from autoresearch.policies.overlap import MadeAhead
from autoresearch.policies.stop import Progress
from autoresearch.trajectory.iterations import Decision, Iteration
from autoresearch.trajectory.spill import Spilled


@dataclass(frozen=True)
class Overlap:
    """The batches made ahead over an experiment, how they carried, and what the edits that did not carry had
    cost (within the lines' mutation spend already: what the overlap lost)."""

    batches: int
    batches_carried: int  # those with an edit that carried (the others were mutated again, paid twice)
    edits: int
    edits_carried: int
    lost_usd: float
    lost_tokens_in: int
    lost_tokens_out: int


@dataclass(frozen=True, slots=True)
class Ahead:
    """A line's batch made ahead (`search.overlap`): its edits, those that carried, and what the others cost."""

    edits: int
    carried: int
    lost_usd: float
    lost_tokens_in: int
    lost_tokens_out: int


@dataclass(frozen=True, slots=True)
class Past:
    """What the loop reads of a past line: its numbers and a few words, a tenth of the whole record's size."""

    cycle: int
    score: float
    decision: Decision
    cost_usd: float  # the cycle's: its eval and its mutation
    duration_s: float | None
    measures_head: bool  # the original or a re-baseline
    rebaseline: bool
    run_dir: str
    commit: str | None
    eval_key: str | None
    error_reason: str | None
    gate: str | None
    many: bool  # the line describes several candidates
    ahead: Ahead | None

    @classmethod
    def of(cls, r: Iteration) -> Past:
        return cls(
            cycle=r.cycle,
            score=r.score,
            decision=r.decision,
            cost_usd=r.cost_usd + (r.mutation_cost_usd or 0.0),
            duration_s=r.duration_s,
            measures_head=r.measures_head,
            rebaseline=bool(r.rebaseline),
            run_dir=r.run_dir,
            commit=r.commit,
            eval_key=r.eval_key,
            error_reason=r.error_reason,
            gate=r.gate,
            many=bool(r.candidates),
            ahead=None if r.made_ahead is None else _ahead(r, r.made_ahead),
        )

    def packed(self) -> tuple[object, ...]:
        """Its fields, in their order, as the plain values a `Spilled` list writes (`unpacked` reads them back).
        Written out field by field: `dataclasses.astuple` deep-copies each value through a recursive walk, a
        sixth of a line's recording (bench/loop_phases.py)."""
        a = self.ahead
        return (
            self.cycle,
            self.score,
            self.decision,
            self.cost_usd,
            self.duration_s,
            self.measures_head,
            self.rebaseline,
            self.run_dir,
            self.commit,
            self.eval_key,
            self.error_reason,
            self.gate,
            self.many,
            None if a is None else (a.edits, a.carried, a.lost_usd, a.lost_tokens_in, a.lost_tokens_out),
        )


def _unpacked(value: object) -> Past:
    v = list(cast(tuple[Any, ...], value))
    v[-1] = None if v[-1] is None else Ahead(*v[-1])
    return Past(*v)


def _ahead(r: Iteration, edits: int) -> Ahead:
    return Ahead(
        edits,
        r.carried or 0,
        r.overlap_lost_usd or 0.0,
        r.overlap_lost_tokens_in or 0,
        r.overlap_lost_tokens_out or 0,
    )


@dataclass
class _RunCounts:
    """The stop rules' counts of the run that began after cycle `start`, brought up to date a line at a time:
    the loop asks for them twice a cycle, and counting them again from every row grew with the night."""

    start: int
    done: int = 0
    without_keep: int = 0
    errors_in_a_row: int = 0
    out_of_scope: int = 0

    def count(self, row: Past) -> None:
        if row.cycle <= self.start:  # before the run (`History.since`)
            return
        self.done += 1
        self.without_keep = 0 if row.decision == "keep" else self.without_keep + 1
        self.errors_in_a_row = self.errors_in_a_row + 1 if row.decision == "error" else 0
        self.out_of_scope += row.error_reason == "out-of-scope"


class History:
    """The experiment's lines, oldest first: `Past` rows for all, whole records for the few read whole.
    It only grows: `add` appends the line just written (autoresearch.optimizer.experiment.session). Given a
    `folder`, the rows are kept on disk there until `close`; without one, their bytes in memory. What the
    loop asks after every line (the decisions' counts, the KEEPs' commits, the run's progress) is kept as
    lines are added, so that asking costs the same at cycle 5,000 as at cycle 5."""

    def __init__(self, records: Iterable[Iteration] = (), folder: Path | None = None) -> None:
        self.rows: Spilled[Past] = Spilled(folder, _unpacked)
        self.original: Iteration | None = None
        self.last: Iteration | None = None  # the newest line
        self.best: Iteration | None = None  # the last KEEP: the artifact at HEAD and the next comparison's baseline
        self.last_evaluated: Iteration | None = None  # the newest line that is not an error
        self.spent_usd = 0.0  # the eval and mutation spend of every line, summed in their order
        # the KEEPs' commits that are edits (not the original, not a re-baseline): state.json's list too, the same
        # list (autoresearch.optimizer.experiment.state.summarize), held once and never copied a cycle
        self.commits: list[str] = []
        self._decisions: Counter[str] = Counter()
        self._run: _RunCounts | None = None  # the last run `progress` was asked about
        for record in records:
            self.add(record)

    def add(self, record: Iteration) -> None:
        """A line now in iterations.jsonl joins the history."""
        row = Past.of(record)
        self.rows.append(row.packed())
        self.original = self.original or record
        self.last = record
        if record.decision == "keep":
            self.best = record
        if record.decision != "error":
            self.last_evaluated = record
        self.spent_usd += row.cost_usd
        self._decisions[row.decision] += 1
        if row.decision == "keep" and not row.measures_head and row.commit is not None:
            self.commits.append(row.commit)
        if self._run is not None:
            self._run.count(row)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def close(self) -> None:
        """Drop the rows' file (the daemon's history, at the session's end)."""
        self.rows.close()

    @property
    def last_cycle(self) -> int:
        return self.rows[-1].cycle if self.rows else 0

    def best_until(self, cycle: int) -> Past | None:
        """The last KEEP at or before `cycle`: where a run that began after `cycle` started from."""
        return next((r for r in reversed(self.rows) if r.decision == "keep" and r.cycle <= cycle), None)

    def start_of_run(self, cycle: int) -> Past | None:
        """What the run that began after `cycle` is measured against: its last re-baseline (HEAD under the
        run's eval), else the KEEP it started from, else the original."""
        rebased = [r for r in self.since(cycle) if r.rebaseline]
        return rebased[-1] if rebased else (self.best_until(cycle) or (self.rows[0] if self.rows else None))

    def since(self, cycle: int) -> list[Past]:
        """The cycles after `cycle`: one run's part of the history."""
        return [r for r in self.rows if r.cycle > cycle]

    @property
    def made_ahead(self) -> list[MadeAhead]:
        """The batches made ahead (`search.overlap`), oldest first, and how many of their edits carried."""
        return [MadeAhead(r.cycle, r.ahead.edits, r.ahead.carried) for r in self.rows if r.ahead is not None]

    @property
    def overlap(self) -> Overlap | None:
        """The batches made ahead summed, or None when none was."""
        made = [r.ahead for r in self.rows if r.ahead is not None and r.ahead.edits]
        if not made:
            return None
        return Overlap(
            batches=len(made),
            batches_carried=sum(bool(a.carried) for a in made),
            edits=sum(a.edits for a in made),
            edits_carried=sum(a.carried for a in made),
            lost_usd=round(sum(a.lost_usd for a in made), 6),
            lost_tokens_in=sum(a.lost_tokens_in for a in made),
            lost_tokens_out=sum(a.lost_tokens_out for a in made),
        )

    def count(self, decision: str) -> int:
        return self._decisions[decision]

    def progress(self, run_start_cycle: int = 0) -> Progress:
        """The counts the stop rules read, of the run that began after `run_start_cycle`: counted over every
        row the first time a run is asked about, then kept up to date by `add`."""
        if self._run is None or self._run.start != run_start_cycle:
            self._run = _RunCounts(run_start_cycle)
            for row in self.rows:
                self._run.count(row)
        run = self._run
        return Progress(
            cycles_done=run.done,
            cycles_without_keep=run.without_keep,
            errors_in_a_row=run.errors_in_a_row,
            out_of_scope_total=run.out_of_scope,
            best_score=self.best.score if self.best else None,
        )

    def expected_cycle_cost(self, candidates: int = 1, window: int = 3) -> float:
        """The mean cost of the recent cycles: the guess for what the next one, of `candidates` candidates,
        will spend. A cycle of one candidate (the original's eval among them) counts `candidates` times its
        cost, so that the first cycle of K candidates is not guessed at one eval's price."""
        recent = self.rows[-window:]
        costs = [r.cost_usd * (1 if r.many else candidates) for r in recent]
        return sum(costs) / len(costs) if costs else 0.0

    def expected_cycle_s(self, window: int = 3) -> float:
        """The mean duration of the recent cycles: the guess for how long the next one takes."""
        recent = [r.duration_s or 0.0 for r in self.rows[-window:]]
        return sum(recent) / len(recent) if recent else 0.0
