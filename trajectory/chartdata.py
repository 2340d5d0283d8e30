"""The numbers the chart draws, derived from iterations.jsonl and state.json.

Pure: no I/O, no markup. The page, the standalone SVG and the tests all read
the same series, so what the chart shows and what the tests check agree.
Every optional field of a record is read defensively: old files, other tools'
files and error cycles may lack it.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from autoresearch.trajectory.candidates import CandidatePoint, add_points
from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.goal import better


@dataclass(frozen=True)
class Reading:
    """How an experiment's scores read: 0-1 scores where higher is better, or a metric (val_bpb) with
    its own scale, no pass rates, and a goal that may be to go down."""

    metric: bool = False
    goal: str = "maximize"  # or minimize

    @property
    def label(self) -> str:
        return f"metric ({better(self.goal)})" if self.metric else "score"


class Pairs(Sequence[tuple[int, float]]):
    """(cycle, value) pairs as two arrays: the live page draws a long night's lines every few seconds, and a
    tuple and a float per line and per series (HEAD's score, both costs, each assertion) made its peak, and
    with it the free memory Python keeps, grow with the night. A pair is made as it is read."""

    __slots__ = ("cycles", "values")

    def __init__(self, cycles: array[int] | None = None, values: array[float] | None = None):
        self.cycles = array("q") if cycles is None else cycles
        self.values = array("d") if values is None else values

    def __len__(self) -> int:
        return len(self.cycles)

    @overload
    def __getitem__(self, index: int) -> tuple[int, float]: ...
    @overload
    def __getitem__(self, index: slice) -> Pairs: ...
    def __getitem__(self, index: int | slice) -> tuple[int, float] | Pairs:
        if isinstance(index, slice):
            return Pairs(self.cycles[index], self.values[index])
        return self.cycles[index], self.values[index]

    def __iter__(self) -> Iterator[tuple[int, float]]:
        return zip(self.cycles, self.values)

    def __reversed__(self) -> Iterator[tuple[int, float]]:
        return iter(self[::-1])


@dataclass(frozen=True)
class Series:
    points: Sequence[Drawn]  # the lines themselves: the chart reads their cycle, score, decision, mutation, partial
    best: Pairs  # (cycle, HEAD's score after that cycle); a step line
    assertions: dict[str, Pairs]  # name -> (cycle, pass rate)
    eval_cost: Pairs  # cumulative
    mutation_cost: Pairs  # cumulative
    holdout: Pairs = field(default_factory=Pairs)  # (cycle, held-out score), when the experiment has a holdout
    candidates: Sequence[CandidatePoint] = ()  # a cycle's parallel candidates, when it had several
    reading: Reading = Reading()
    # cycles that measured HEAD again because the eval changed: the scores before them are another eval's
    breaks: Sequence[int] = ()
    evaluated: Pairs = field(default_factory=Pairs)  # (cycle, score) of the cycles that measured one (no error)
    summary: Summary | None = None  # the cards' figures, found in the same pass (see `summary`)
    objectives: dict[str, Pairs] = field(default_factory=dict)  # name -> (cycle, value), in the order first met
    gated: Sequence[Drawn] = ()  # the lines a promotion gate blocked


def number(record: Drawn, name: str) -> float | None:
    """An optional numeric field, or None when it is absent or not a number."""
    value = getattr(record, name, None)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def series(records: Sequence[Drawn], reading: Reading = Reading()) -> Series:
    """In one pass over the records, with their `summary` and candidates: the live page's are read back from
    disk for each pass (trajectory.drawn)."""
    best, holdout, evaluated = Pairs(), Pairs(), Pairs()
    cycles, eval_cost, mutation_cost = array("q"), array("d"), array("d")
    assertions: dict[str, Pairs] = {}
    breaks: list[int] = []
    candidates: list[CandidatePoint] = []
    objectives: dict[str, Pairs] = {}
    gated: list[Drawn] = []
    tally = _Tally()
    head: float | None = None
    spent_eval = spent_mutation = 0.0
    for r in records:
        tally.add(r)
        cycles.append(r.cycle)
        if r.decision == "keep":
            head = r.score
        if r.decision != "error":
            evaluated.cycles.append(r.cycle)
            evaluated.values.append(r.score)
        if head is not None:
            best.cycles.append(r.cycle)
            best.values.append(head)
        spent_eval += r.cost_usd
        spent_mutation += number(r, "mutation_cost_usd") or 0.0
        eval_cost.append(spent_eval)
        mutation_cost.append(spent_mutation)
        if (value := number(r, "holdout_score")) is not None:
            holdout.cycles.append(r.cycle)
            holdout.values.append(value)
        if not reading.metric:  # a metric's one "grader" is the value, not a rate
            _add_assertions(assertions, r)
        if r.rebaseline:
            breaks.append(r.cycle)
        add_points(candidates, r)
        add_objectives(objectives, r)
        if r.gate:
            gated.append(r)
    return Series(
        records,
        best,
        dict(sorted(assertions.items())),
        Pairs(cycles, eval_cost),
        Pairs(cycles, mutation_cost),
        holdout,
        candidates,
        reading,
        breaks,
        evaluated,
        tally.summary(),
        objectives,
        gated,
    )


def add_objectives(out: dict[str, Pairs], r: Drawn) -> None:
    for name, value in (r.objectives or {}).items():
        pairs = out.get(name)
        if pairs is None:
            pairs = out[name] = Pairs()
        pairs.cycles.append(r.cycle)
        pairs.values.append(value)


def _add_assertions(out: dict[str, Pairs], r: Drawn) -> None:
    """Error cycles measured nothing: they leave a gap rather than a drop to zero."""
    if r.decision == "error":
        return
    for name, rate in r.assertions.items():
        pairs = out.get(name)
        if pairs is None:
            pairs = out[name] = Pairs()
        pairs.cycles.append(r.cycle)
        pairs.values.append(rate)


@dataclass(frozen=True)
class Summary:
    original: float | None
    best: float | None  # HEAD: the last KEEP's score
    best_cycle: int | None
    cycles: int
    keeps: int
    drops: int
    errors: int
    eval_cost: float
    mutation_cost: float
    # the last re-baseline (HEAD measured again when the eval changed): (cycle, score), the improvement's start
    rebased: tuple[int, float] | None = None

    @property
    def start(self) -> float | None:
        """What the improvement is measured from: a score of the same eval as the best's."""
        return self.rebased[1] if self.rebased else self.original

    @property
    def improvement(self) -> float | None:
        if self.start is None or self.best is None:
            return None
        return self.best - self.start

    @property
    def total_cost(self) -> float:
        return self.eval_cost + self.mutation_cost


def summary(records: Sequence[Drawn]) -> Summary:
    """From the records, not state.json: the page must agree with its own table and charts. In one pass (see
    `series`, which finds it in its own), holding no record but the first and the last KEEP."""
    tally = _Tally()
    for r in records:
        tally.add(r)
    return tally.summary()


class _Tally:
    """`summary`'s figures, a line at a time."""

    def __init__(self) -> None:
        self.first: Drawn | None = None
        self.last_keep: Drawn | None = None
        self.rebased: tuple[int, float] | None = None
        self.cycles = self.keeps = self.drops = self.errors = 0
        self.eval_cost, self.mutation_cost = array("d"), array("d")  # summed as `sum` sums them (compensated)

    def add(self, r: Drawn) -> None:
        self.first = r if self.first is None else self.first
        self.cycles += 1
        if r.decision == "keep":
            self.keeps, self.last_keep = self.keeps + 1, r
        self.drops += r.decision == "drop"
        self.errors += r.decision == "error"
        self.eval_cost.append(r.cost_usd)
        self.mutation_cost.append(number(r, "mutation_cost_usd") or 0.0)
        if r.rebaseline:
            self.rebased = (r.cycle, r.score)

    def summary(self) -> Summary:
        first, last_keep = self.first, self.last_keep
        return Summary(
            original=None if first is None else first.score,
            best=None if last_keep is None else last_keep.score,
            best_cycle=None if last_keep is None else last_keep.cycle,
            cycles=self.cycles,
            keeps=self.keeps,
            drops=self.drops,
            errors=self.errors,
            eval_cost=sum(self.eval_cost),
            mutation_cost=sum(self.mutation_cost),
            rebased=self.rebased,
        )
