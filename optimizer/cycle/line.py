"""A cycle's iterations line, built in one place from typed parts: the mutation (its summary and spend), the
evaluations' spend, the decision's assessment (autoresearch.optimizer.cycle.verdict) and the outcome.

A `Draft` collects the parts as the cycle finds them; `Draft.finish` turns them into the line. Nothing
writes a line's field by name elsewhere, so a field cannot be misspelt on the way (and
autoresearch.trajectory.iterations.append refuses a line with a field it does not declare).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from autoresearch.mutators.base import MutationResult
from autoresearch.optimizer.cycle.holdout import HeadHoldout
from autoresearch.optimizer.cycle.measure import Spend
from autoresearch.optimizer.cycle.verdict import Assessment
from autoresearch.trajectory.iterations import Candidate, Decision, Iteration


@dataclass(frozen=True)
class MutationSpend:
    """What a candidate's mutations spent (summed over its attempts), and how many attempts were lost with
    their Ray node (`executor: ray`): what those spent is not known, and not in the figures beside it."""

    cost_usd: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    lost_attempts: int = 0

    @classmethod
    def of(cls, result: MutationResult) -> MutationSpend:
        return cls(round(result.cost_usd, 6), result.tokens_in, result.tokens_out, result.lost_attempts)

    def __add__(self, other: MutationSpend) -> MutationSpend:
        return MutationSpend(
            round(self.cost_usd + other.cost_usd, 6),
            self.tokens_in + other.tokens_in,
            self.tokens_out + other.tokens_out,
            self.lost_attempts + other.lost_attempts,
        )

    def __sub__(self, other: MutationSpend) -> MutationSpend:
        return MutationSpend(
            self.cost_usd - other.cost_usd,
            self.tokens_in - other.tokens_in,
            self.tokens_out - other.tokens_out,
            self.lost_attempts - other.lost_attempts,
        )


@dataclass(frozen=True)
class EvalSpend:
    """The evaluations' spend as the line states it (a figure left None is not on the line)."""

    cost_usd: float | None = None
    eval_runs: int | None = None
    cache_hits: int | None = None
    skipped_tests: int | None = None
    lost_attempts: int | None = None  # `executor: ray`: its tasks' attempts lost with their node, spend not known

    @classmethod
    def of(cls, spend: Spend) -> EvalSpend:
        """Eval runs made, cache hits and tests skipped, on the line only when the cache, repeats or an early
        discard were involved."""
        shown = spend.hits or spend.runs != 1
        return cls(
            spend.cost_usd,
            spend.runs if shown else None,
            spend.hits if shown else None,
            spend.skipped or None,
            spend.lost or None,
        )

    @classmethod
    def before_failing(cls, spend: Spend) -> EvalSpend:
        """The line's spend when an eval failed: the runs that ended before it, which cost what they cost (a test
        failing on its fifth run made four), and the failed run, one more eval run, of unknown cost. Nothing when
        no run ended before it: the line is as any failed eval's."""
        if spend.runs == 0 and spend.hits == 0:
            return cls(lost_attempts=spend.lost or None)
        return cls(round(spend.cost_usd, 6), spend.runs + 1, spend.hits, lost_attempts=spend.lost or None)

    def on_line(self) -> Spend:
        """The spend this line records (`eval_runs` is named only when not 1: a hit is 0)."""
        runs = 1 if self.eval_runs is None else self.eval_runs
        return Spend(runs=runs, hits=self.cache_hits or 0, cost_usd=self.cost_usd or 0.0, lost=self.lost_attempts or 0)


@dataclass(frozen=True)
class Selected:
    """The first run's figures of a pick decided again, which the pick was made on."""

    score: float | None
    wins: int | None
    losses: int | None


@dataclass(frozen=True)
class Failure:
    """An error cycle's kind (eval-failed, no-change, out-of-scope, ...) and its message, redacted."""

    reason: str
    message: str


@dataclass(frozen=True)
class HeadMeasure:
    """HEAD measured as it is (the original, a re-baseline): what its KEEP line says beside the spend."""

    score: float
    assertions: dict[str, float]
    commit: str
    tests: int
    objectives: dict[str, float]
    reason: str
    rebaseline: bool
    holdout: HeadHoldout | None


@dataclass(frozen=True)
class CycleSpend:
    """A parallel cycle's spend, on its one line: every candidate's evals and the mutations it pays for."""

    evals: EvalSpend
    mutations: MutationSpend


@dataclass(frozen=True)
class Carry:
    """How a batch made ahead (while the cycle before was decided) carried onto that cycle's HEAD: its edits,
    those that carried, and the mutation spend of those that did not (already on the line before: lost)."""

    edits: int
    carried: int
    lost: MutationSpend = MutationSpend()


@dataclass
class Draft:
    """The iterations line as it is being filled in, by typed parts."""

    cycle: int
    run_dir: str
    eval_key: str  # the eval that measures this cycle (autoresearch.optimizer.cycle.keys.eval_key)
    started: float = field(default_factory=time.monotonic)
    mutation: str | None = None  # the mutation's summary ("original", "re-baseline", a merge's parents')
    mutation_spend: MutationSpend | None = None
    spend: EvalSpend = EvalSpend()
    assessment: Assessment | None = None
    selected: Selected | None = None

    def finish(
        self,
        decision: Decision,
        *,
        failure: Failure | None = None,
        head: HeadMeasure | None = None,
        cycle_spend: CycleSpend | None = None,
        strategy: str | None = None,
        candidates: list[Candidate] | None = None,
        carry: Carry | None = None,
        parent: str | None = None,
    ) -> Iteration:
        """The line: the draft's parts, the outcome's (`failure`, HEAD measured, a parallel cycle's spend,
        strategy, candidates and the shown one's parent, how the edits made ahead for it carried), and the
        cycle's duration so far."""
        data: dict[str, Any] = {"cycle": self.cycle, "run_dir": self.run_dir, "eval_key": self.eval_key}
        if self.mutation is not None:
            data["mutation"] = self.mutation
        mutations, evals = (cycle_spend.mutations, cycle_spend.evals) if cycle_spend else (self.mutation_spend, None)
        if mutations is not None:
            data |= {
                "mutation_cost_usd": mutations.cost_usd,
                "tokens_in": mutations.tokens_in,
                "tokens_out": mutations.tokens_out,
            }
            if mutations.lost_attempts:
                data["mutation_lost_attempts"] = mutations.lost_attempts
        if self.assessment is not None:
            data |= _assessed(self.assessment)
        data |= _spend(self.spend)
        if evals is not None:
            data |= _spend(evals)
        if self.selected is not None:
            s = self.selected
            data |= {"selected_score": s.score, "selected_wins": s.wins, "selected_losses": s.losses}
        if head is not None:
            data |= _head(head)
        if failure is not None:
            data |= {"score": 0.0, "error": failure.message, "error_reason": failure.reason}
        if carry is not None:
            data |= _carry(carry)
        data |= {"decision": decision, "strategy": strategy, "candidates": candidates, "parent": parent}
        data["duration_s"] = round(time.monotonic() - self.started, 3)
        return Iteration(**data)


def _spend(spend: EvalSpend) -> dict[str, Any]:
    fields = {
        "cost_usd": spend.cost_usd,
        "eval_runs": spend.eval_runs,
        "cache_hits": spend.cache_hits,
        "skipped_tests": spend.skipped_tests,
        "eval_lost_attempts": spend.lost_attempts,
    }
    return {name: value for name, value in fields.items() if value is not None}


def _carry(c: Carry) -> dict[str, Any]:
    data: dict[str, Any] = {"made_ahead": c.edits, "carried": c.carried}
    if c.carried < c.edits:
        lost = c.lost
        data |= {
            "overlap_lost_usd": lost.cost_usd,
            "overlap_lost_tokens_in": lost.tokens_in,
            "overlap_lost_tokens_out": lost.tokens_out,
        }
    return data


def _assessed(a: Assessment) -> dict[str, Any]:
    s = a.summary
    data: dict[str, Any] = {
        "score": a.score,
        "assertions": a.assertions,
        "wins": s.wins,
        "losses": s.losses,
        "ties": s.ties,
        "mean_delta": s.mean_delta,
        "reason": str(a.reason),
        "tests": a.tests,
        "objectives": a.objectives,
        "composite": a.composite,
        "gate": a.reason.gate.gate if a.reason.gate is not None else None,
    }
    if a.holdout is not None:
        data |= {"holdout_score": a.holdout.score, "holdout_regressed": a.holdout.regressed}
        data |= {"holdout_z": a.holdout.z} if a.holdout.z is not None else {}
    if a.evidence is not None:
        e = a.evidence
        data |= {
            "samples": e.samples,
            "head_samples": e.head_samples,
            "p_value": e.p_value,
            "interval": list(e.interval),
        }
    return data


def _head(h: HeadMeasure) -> dict[str, Any]:
    data: dict[str, Any] = {
        "score": h.score,
        "assertions": h.assertions,
        "commit": h.commit,
        "tests": h.tests,
        "objectives": h.objectives,
        "reason": h.reason,
    }
    if h.rebaseline:
        data["rebaseline"] = True
    if h.holdout is not None:
        data |= {"holdout_score": h.holdout.score, "holdout_tests": h.holdout.tests}
    return data
