"""The sequential runs the significant rule asks for: candidate and HEAD samples until it is confident.

The rule draws candidate samples 1, 2, … (2, 3, … for a candidate picked from
several on its sample 1) and HEAD samples after the ones its KEEP was selected
on (the winner's curse: those are the lucky draw).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from autoresearch.optimizer.cycle.gating import rescored
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.tree import head_in_tree
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_id, artifact_size
from autoresearch.policies.significant import Verdict, significant
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.samples import merge, write_index


def head_offset(session: Session) -> int:
    """HEAD's samples that its KEEP was selected on (none for the original)."""
    best = session.history.best
    return (best.samples or 0) if best and best.cycle > 1 else 0


@dataclass(frozen=True)
class Place:
    """Where a parallel candidate is evaluated: its worktree, and an evaluator that runs there."""

    ws: Workspace
    evaluator: Evaluator


@dataclass
class Sequential:
    verdict: Verdict
    candidate: list[list[dict]]
    head: list[list[dict]]
    spend: Spend = field(default_factory=Spend)
    first: int = 1  # the candidate's first sample in the test (those before it chose it from several)


def decide_significant(session: Session, run_dir: Path, place: Place | None = None, first: int = 1) -> Sequential:
    """Draw candidate and HEAD samples until the rule decides; the candidate's merged rows go to run_dir.
    A parallel candidate's `place` names its worktree and its evaluator. The candidate's samples are drawn
    from `first` on: a candidate picked from several on its sample 1 is tested on samples that did not pick
    it (autoresearch.optimizer.cycle.confirm)."""
    policy = session.config.policy
    ws, evaluator = (place.ws, place.evaluator) if place else (session.ws, None)
    cand_key, head_key = artifact_key(ws), artifact_id(ws)
    offset = head_offset(session)
    spend = Spend()
    stored = session.cache.count(head_key, after=offset)  # accumulated by earlier cycles, or a resumed run
    head = [session.cache.get(head_key, n) or [] for n in range(offset + 1, offset + 1 + stored)]
    cand = [measure(session, run_dir / f"sample-{first}", cand_key, first, spend, evaluator=evaluator)]
    simpler = artifact_size(ws) < artifact_size(ws, "HEAD")
    while True:
        hidden = session.holdout.tests if session.holdout else frozenset()
        verdict = significant(
            _scores(session, ws, cand, hidden),
            _scores(session, ws, head, hidden, head=True),
            policy.confidence,
            policy.max_repeats,
            simpler,
        )
        get().info("evidence", action=verdict.action, reason=verdict.reason)
        if verdict.done:
            break
        if verdict.action == "more-candidate":
            n = first + len(cand)
            cand.append(measure(session, run_dir / f"sample-{n}", cand_key, n, spend, evaluator=evaluator))
        else:
            n = offset + len(head) + 1
            with head_in_tree(ws, run_dir):
                head.append(measure(session, run_dir / f"head-{n}", head_key, n, spend, evaluator=evaluator))
    write_index(run_dir, merge(cand))
    return Sequential(verdict, cand, head, spend, first)


def _scores(
    session: Session, ws: Workspace, samples: list[list[dict]], hidden: frozenset[str], head: bool = False
) -> list[dict[str, float]]:
    """Per-sample test scores (by the composite, with `objectives:` weights, against HEAD's results),
    the held-out tests left out: the rule decides on the train part."""
    if session.config.objectives:
        sizes = (artifact_size(ws, "HEAD"), artifact_size(ws, "HEAD" if head else None))
        samples = [rescored(session.config, session.baseline_rows, rows, sizes) for rows in samples]
    return [{row["test_id"]: float(row["score"]) for row in rows if row["test_id"] not in hidden} for rows in samples]
