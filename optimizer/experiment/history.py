"""What an experiment's past says, read from iterations.jsonl alone.

Everything the loop needs to resume (cycle number, baseline, streaks, spend)
is derived here from the records, so a restarted daemon needs no other memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from autoresearch.policies.overlap import MadeAhead
from autoresearch.policies.stop import Progress
from autoresearch.trajectory.iterations import Iteration


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


@dataclass(frozen=True)
class History:
    records: list[Iteration]

    @property
    def last_cycle(self) -> int:
        return self.records[-1].cycle if self.records else 0

    @property
    def original(self) -> Iteration | None:
        return self.records[0] if self.records else None

    @property
    def best(self) -> Iteration | None:
        """The last KEEP: the artifact at HEAD and the baseline of the next comparison."""
        keeps = [r for r in self.records if r.decision == "keep"]
        return keeps[-1] if keeps else None

    def best_until(self, cycle: int) -> Iteration | None:
        """The last KEEP at or before `cycle`: where a run that began after `cycle` started from."""
        keeps = [r for r in self.records if r.decision == "keep" and r.cycle <= cycle]
        return keeps[-1] if keeps else None

    def start_of_run(self, cycle: int) -> Iteration | None:
        """What the run that began after `cycle` is measured against: its last re-baseline (HEAD under the
        run's eval), else the KEEP it started from, else the original."""
        rebased = [r for r in self.since(cycle).records if r.rebaseline]
        return rebased[-1] if rebased else (self.best_until(cycle) or self.original)

    def since(self, cycle: int) -> History:
        """The cycles after `cycle`: one run's part of the history."""
        return History([r for r in self.records if r.cycle > cycle])

    @property
    def last_evaluated(self) -> Iteration | None:
        done = [r for r in self.records if r.decision != "error"]
        return done[-1] if done else None

    @property
    def made_ahead(self) -> list[MadeAhead]:
        """The batches made ahead (`search.overlap`), oldest first, and how many of their edits carried."""
        return [MadeAhead(r.cycle, r.made_ahead, r.carried or 0) for r in self.records if r.made_ahead is not None]

    @property
    def overlap(self) -> Overlap | None:
        """The batches made ahead summed, or None when none was."""
        made = [r for r in self.records if r.made_ahead]
        if not made:
            return None
        return Overlap(
            batches=len(made),
            batches_carried=sum(bool(r.carried) for r in made),
            edits=sum(r.made_ahead or 0 for r in made),
            edits_carried=sum(r.carried or 0 for r in made),
            lost_usd=round(sum(r.overlap_lost_usd or 0.0 for r in made), 6),
            lost_tokens_in=sum(r.overlap_lost_tokens_in or 0 for r in made),
            lost_tokens_out=sum(r.overlap_lost_tokens_out or 0 for r in made),
        )

    def count(self, decision: str) -> int:
        return sum(r.decision == decision for r in self.records)

    def _streak(self, test: Callable[[Iteration], bool]) -> int:
        n = 0
        for record in reversed(self.records):
            if not test(record):
                break
            n += 1
        return n

    def progress(self, run_start_cycle: int = 0) -> Progress:
        """The counts the stop rules read, of the run that began after `run_start_cycle`."""
        run = self.since(run_start_cycle)
        best = self.best
        return Progress(
            cycles_done=len(run.records),
            cycles_without_keep=run._streak(lambda r: r.decision != "keep"),
            errors_in_a_row=run._streak(lambda r: r.decision == "error"),
            out_of_scope_total=sum(r.error_reason == "out-of-scope" for r in run.records),
            best_score=best.score if best else None,
        )

    def cycle_cost(self, record: Iteration) -> float:
        return record.cost_usd + (record.mutation_cost_usd or 0.0)

    @cached_property
    def spent_usd(self) -> float:  # asked several times a cycle; a History is never changed, only replaced
        return sum(self.cycle_cost(r) for r in self.records)

    def expected_cycle_cost(self, candidates: int = 1, window: int = 3) -> float:
        """The mean cost of the recent cycles: the guess for what the next one, of `candidates` candidates,
        will spend. A cycle of one candidate (the original's eval among them) counts `candidates` times its
        cost, so that the first cycle of K candidates is not guessed at one eval's price."""
        recent = self.records[-window:]
        costs = [self.cycle_cost(r) * (1 if r.candidates else candidates) for r in recent]
        return sum(costs) / len(costs) if costs else 0.0

    def expected_cycle_s(self, window: int = 3) -> float:
        """The mean duration of the recent cycles: the guess for how long the next one takes."""
        recent = [r.duration_s or 0.0 for r in self.records[-window:]]
        return sum(recent) / len(recent) if recent else 0.0
