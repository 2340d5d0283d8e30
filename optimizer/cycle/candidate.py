"""One candidate, start to finish: mutate, check the scope, evaluate, decide, commit or restore.

Each step that fails turns the cycle into an `error` record with a reason;
whatever happens, the tree is back at HEAD or committed before the record is written
(autoresearch.optimizer.cycle.tree sees to it on every way out). The evaluation and its
decision (autoresearch.optimizer.cycle.evaluation) and the cycle's end
(autoresearch.optimizer.cycle.conclude) are the same for each of several parallel candidates.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable

from autoresearch.mutators.errors import MutationFailed, MutationsExhausted
from autoresearch.optimizer import faults
from autoresearch.optimizer.cycle import checks, tree
from autoresearch.optimizer.cycle.conclude import Kept, commit_message, conclude, failed
from autoresearch.optimizer.cycle.evaluation import judge_candidate
from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.holdout import HeadHoldout, guard_head, guard_original
from autoresearch.optimizer.cycle.line import Draft, EvalSpend, HeadMeasure, MutationSpend
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.mutate import mutate
from autoresearch.optimizer.cycle.stops import RunStopped, stop_requested
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import artifact_id, artifact_size
from autoresearch.plumbing.redact import redact
from autoresearch.policies.stop import Limits
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.objectives import overall
from autoresearch.runs.results import assertion_rates, mean_score
from autoresearch.trajectory.iterations import Iteration

ORIGINAL_ATTEMPTS = Limits.max_errors_in_a_row
REBASELINE = "re-baseline: the eval changed since HEAD's results"


def original(session: Session) -> Iteration:
    """Cycle 1: the untouched artifact, always KEEP (it is the baseline everything is measured from)."""
    return _with_attempts("the original's eval", lambda: _original_once(session))


def rebaseline(session: Session) -> Iteration:
    """HEAD measured again, because its results came from another eval than this run's (the user changed
    the eval, its files or its settings): a KEEP line of its own, marked `rebaseline`, whose results are
    the baseline of every decision after it, so that no decision compares the results of two evals."""
    return _with_attempts("HEAD's eval", lambda: _rebaseline_once(session))


def _with_attempts(what: str, once: Callable[[], Iteration]) -> Iteration:
    """A measurement of HEAD gets the attempts any cycle gets before failures stop a run (three in a row):
    one flaky eval must not end a night's run before it starts. Each failure is logged with its reason."""
    attempt = 1
    while True:
        try:
            return once()
        except EvalFailed as exc:
            if attempt == ORIGINAL_ATTEMPTS:
                raise
            get().warning(f"{what} failed (attempt {attempt} of {ORIGINAL_ATTEMPTS})", error=redact(str(exc)))
            attempt += 1


def _original_once(session: Session) -> Iteration:
    run_dir = session.paths.new_run_dir(1)
    draft = Draft(1, run_dir.name, session.eval_key, mutation="original")
    spend = Spend()
    rows = measure(session, run_dir, artifact_id(session.ws), 1, spend)
    rows, held = guard_original(session, run_dir, rows)
    session.set_baseline(rows)
    return _head_line(session, draft, rows, spend, "original", held)


def _rebaseline_once(session: Session) -> Iteration:
    cycle = session.history.last_cycle + 1
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name, session.eval_key, mutation="re-baseline")
    spend = Spend()
    rows = measure(session, run_dir, artifact_id(session.ws), 1, spend)
    rows, held_rows, held = guard_head(session, run_dir, rows)
    session.rebased(rows, held_rows)
    return _head_line(session, draft, rows, spend, REBASELINE, held, rebaseline=True)


def _head_line(
    session: Session,
    draft: Draft,
    rows: Rows,
    spend: Spend,
    reason: str,
    held: HeadHoldout | None,
    rebaseline: bool = False,
) -> Iteration:
    """The line of HEAD measured as it is: a KEEP of the commit it already is."""
    draft.spend = EvalSpend.of(spend)
    head = HeadMeasure(
        score=mean_score(rows),
        assertions=assertion_rates(rows),
        commit=session.ws.head(),
        tests=len({r["test_id"] for r in rows}),
        objectives=overall(rows, artifact_size(session.ws)),
        reason=reason,
        rebaseline=rebaseline,
        holdout=held,
    )
    return draft.finish("keep", head=head)


def candidate(session: Session, cycle: int) -> None:
    """Cycles 2+: ask the mutator for a candidate, judge it against HEAD's results, and write the
    decision down. Each outcome's git step and its iterations line happen in one critical block."""
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name, session.eval_key)
    with tree.in_tree(session.ws, run_dir) as cand:
        try:
            mutation = mutate(session, cycle, cand)
        except MutationFailed as exc:
            if exc.spent is not None:
                draft.mutation_spend = MutationSpend.of(exc.spent)
            return settle(session, cand, draft.finish("error", failure=failed(exc.reason, str(exc))))
        except MutationsExhausted:
            shutil.rmtree(run_dir)  # no cycle happened: leave no run directory behind
            raise RunStopped("mutations-exhausted") from None
        faults.point("after-mutate")
        if stop_requested(session):
            cand.discard()  # a candidate made while the STOP file appeared is saved as a patch, not evaluated
            raise RunStopped("stop-requested")
        draft.mutation, draft.mutation_spend = mutation.summary, MutationSpend.of(mutation)
        try:
            assessed = judge_candidate(session, run_dir, draft)
        except EvalFailed as exc:
            return settle(session, cand, draft.finish("error", failure=failed("eval-failed", str(exc))))
        assessed = checks.judged(session, assessed, session.ws, run_dir, str(cycle))
        draft.assessment = assessed
        kept = Kept(commit_message(cycle, mutation.summary), assessed.rows, assessed.held) if assessed.keep else None
        conclude(session, cand, draft.finish("keep" if kept else "drop"), kept)


def settle(session: Session, cand: tree.Candidate, entry: Iteration) -> None:
    """A candidate not kept: its line written as the cycle concludes (`conclude`)."""
    conclude(session, cand, entry, None)
