"""A candidate's decision as one value: everything it needs, computed once, in a frozen record.

`assess` takes a candidate's evaluated rows and HEAD's, and computes, in this order and each once: the
held-out part hidden, the artifacts' sizes (a tree walk for a directory artifact: `Sizes`, measured by
the caller before the evaluation and handed down), the scored pair (by the composite when `objectives:`
weights are set), the comparison and the rule's decision, the holdout's veto, the objectives and the
gates. The result, an `Assessment`, is what the iterations line, the pick among parallel candidates and
a confirmation read: nothing is read back from a half-built line.

Why a candidate is kept or not is a `Reason` of typed parts (the rule's words, the veto, the gate, the
confirmation), rendered as text in one place (`Reason.__str__`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from autoresearch.optimizer.cycle.decide import compare_for_goal, judge
from autoresearch.optimizer.cycle.gating import Rows, Sizes, blocked_by, scored_pair
from autoresearch.optimizer.cycle.holdout import Regression, guard_candidate
from autoresearch.optimizer.cycle.sequential import Sequential
from autoresearch.optimizer.experiment.session import Session
from autoresearch.policies.gates import Blocked
from autoresearch.runs.compare import Summary
from autoresearch.runs.objectives import overall
from autoresearch.runs.results import assertion_rates, mean_score


@dataclass(frozen=True)
class Reason:
    """Why a candidate is kept or not, in parts; `str` renders them (the line's `reason`)."""

    rule: str  # the keep rule's words (or the sequential test's)
    holdout_vetoed: bool = False  # the rule kept it, the held-out tests regressed
    gate: Blocked | None = None  # the rule kept it, a promotion gate blocked it
    lost_alone: str | None = None  # a confirmation on the mean: HEAD beat its second run alone (HEAD's words)
    confirmation: str | None = None  # how a pick was decided again ("the mean of two runs", ...)
    confirmed: bool = False
    unconfirmed: str | None = None  # why a pick could not be decided again (its whole reason then)
    not_kept: str | None = None  # why a pick is not kept after all (its whole reason then)
    merge_won: bool = False  # a confirmed pick that a merge of the cycle's candidates beat

    def __str__(self) -> str:
        if self.not_kept is not None:
            return f"not kept: {self.not_kept}"
        if self.unconfirmed is not None:
            return f"not confirmed: {self.unconfirmed}"
        text = self.rule
        if self.holdout_vetoed:
            text = f"{text}; vetoed: the holdout regressed"
        if self.gate is not None:
            text = f"blocked by gate {self.gate.gate}: {self.gate.reason} ({text})"
        if self.lost_alone is not None:
            text = f"{text}; but its second run alone lost to HEAD (for HEAD: {self.lost_alone})"
        if self.confirmation is not None:
            text = f"{'confirmed' if self.confirmed else 'not confirmed'} on {self.confirmation}: {text}"
        if self.merge_won:
            text = f"{text}; not kept: the merge candidate scored higher"
        return text


@dataclass(frozen=True)
class Evidence:
    """The significant rule's evidence on the line."""

    samples: int  # candidate runs drawn (HEAD's selected samples, once it is kept)
    head_samples: int
    p_value: float
    interval: tuple[float, float]


@dataclass(frozen=True)
class Assessment:
    """A candidate's decision and everything the line says of it."""

    rows: Rows  # its train rows (the held-out ones hidden)
    held: Rows  # its held-out rows
    keep: bool
    reason: Reason
    score: float
    assertions: dict[str, float]
    summary: Summary  # the comparison with HEAD's results
    tests: int | None  # what a partial score is over (an early discard's)
    holdout: Regression | None
    objectives: dict[str, float]
    composite: float | None  # the score the rule decided on, with `objectives:` weights
    sizes: Sizes
    evidence: Evidence | None = None

    def unkept(self, **parts: object) -> Assessment:
        """The same assessment, not kept, its reason given the parts that say why."""
        return replace(self, keep=False, reason=replace(self.reason, **parts))  # type: ignore[arg-type]


def assess(
    session: Session,
    run_dir: Path,
    evaluated: tuple[Rows, Rows],
    sizes: Sizes,
    skipped: int,
    sequential: Sequential | None = None,
) -> Assessment:
    """The decision on a candidate's evaluated rows and HEAD's (`evaluated`), the candidate's held-out part hidden
    in `run_dir` first: by the rule (or the sequential test already run), the holdout's veto and the gates."""
    config = session.config
    rows, held, regression = guard_candidate(session, run_dir, evaluated[0])
    baseline = session.holdout.partition(evaluated[1])[0] if session.holdout else evaluated[1]
    session.set_phase("decide")
    if sequential is not None:  # decided from the samples; the summary of the means is still recorded
        v = sequential.verdict
        comparison, keep, reason = compare_for_goal(config, baseline, rows), v.action == "keep", Reason(v.reason)
        head_scored, scored = scored_pair(config, sizes, baseline, rows)
    else:
        verdict = judge(config, sizes, baseline, rows)
        comparison, keep, reason = verdict.comparison, verdict.decision.keep, Reason(verdict.decision.reason)
        head_scored, scored = verdict.scored
    if keep and regression is not None and regression.regressed:
        keep, reason = False, replace(reason, holdout_vetoed=True)
    objectives = overall(rows, sizes.candidate)
    if keep:
        blocked = blocked_by(config, (baseline, sizes.head, head_scored), (rows, objectives, scored))
        if blocked is not None:
            keep, reason = False, replace(reason, gate=blocked)
    return Assessment(
        rows=rows,
        held=held,
        keep=keep,
        reason=reason,
        score=mean_score(rows),
        assertions=assertion_rates(rows),
        summary=comparison.summary,
        tests=len({r["test_id"] for r in rows}) if skipped else None,
        holdout=regression,
        objectives=objectives,
        composite=round(mean_score(scored), 6) if config.objectives else None,
        sizes=sizes,
        evidence=_evidence(sequential),
    )


def _evidence(sequential: Sequential | None) -> Evidence | None:
    if sequential is None:
        return None
    v = sequential.verdict
    return Evidence(
        samples=v.candidate_runs + sequential.first - 1,  # HEAD's selected samples, once it is kept
        head_samples=v.head_runs,
        p_value=round(v.p_value, 6),
        interval=(round(v.interval[0], 4), round(v.interval[1], 4)),
    )
