"""A candidate evaluated and decided, wherever it is (the checkout, or a parallel candidate's worktree): the
evaluation through the result cache (once, or as often as a sequential rule asks) and its assessment
(autoresearch.optimizer.cycle.verdict), both written into the candidate's draft line."""

from __future__ import annotations

from autoresearch.optimizer.cycle.batch import Sibling
from autoresearch.optimizer.cycle.decide import rule_of
from autoresearch.optimizer.cycle.early import EarlyDiscard
from autoresearch.optimizer.cycle.eval_writes import given
from autoresearch.optimizer.cycle.gating import Sizes
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.line import EvalSpend
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.sequential import decide_significant
from autoresearch.optimizer.cycle.verdict import Assessment, assess
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import artifact_bytes
from autoresearch.plumbing import faults
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.samples import merge


def judge_candidate(session: Session, s: Sibling) -> Assessment:
    """Evaluate the candidate (once, or as often as a sequential rule asks) and decide; the assessment and
    the spend go into its draft line, the assessment is returned, and what was evaluated is kept as
    `s.evaluated` (a KEEP commits that, never a later write: autoresearch.optimizer.cycle.tree.Candidate.commit).
    A parallel candidate's `place` says where it is and how it is evaluated (the checkout's otherwise); it is
    evaluated once, a sequential rule saying only whether it may be picked (its test comes if it is)."""
    place, run_dir, draft = s.place, s.run_dir, s.draft
    ws = place.ws if place else session.ws
    data = artifact_bytes(ws)  # read once for its size and its key: nothing writes the artifact in between
    s.evaluated = given(ws, artifact_key(ws, data), data)
    spend, sequential, sizes = Spend(), None, Sizes.of(ws, data)
    try:
        if rule_of(session.config).sequential and not place:
            sequential = decide_significant(session, run_dir, spend, sizes, key=s.evaluated.key)
            rows, baseline = merge(sequential.candidate), merge(sequential.head)
        else:
            baseline, evaluator = session.baseline_rows, place.evaluator if place else None
            watch = early_discard(session, sizes)
            rows = measure(session, ws, run_dir, s.evaluated.key, 1, spend, watch, evaluator, s.evaluated)
    except EvalFailed:
        draft.spend = EvalSpend.before_failing(spend)
        raise
    faults.point("after-eval")
    draft.assessment = assess(session, run_dir, (rows, baseline), sizes, spend.skipped, sequential)
    draft.spend = EvalSpend.of(spend)
    return draft.assessment


def early_discard(session: Session, sizes: Sizes) -> EarlyDiscard | None:
    """Under a rule that allows it (and a per-test eval), a watch that stops the eval once the candidate cannot win."""
    config = session.config
    if not rule_of(config).early_discard or session.holdout or config.objectives:
        return None  # (a holdout needs every held-out test run, whatever the train part says; a composite, every cost)
    return EarlyDiscard(session.baseline_rows, config.policy.threshold, sizes.simpler)
