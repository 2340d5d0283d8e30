"""HEAD measured as it is, on a KEEP line of its own: the original (cycle 1), and a re-baseline when HEAD's
results came from another eval. The cycles that try candidates are autoresearch.optimizer.cycle.engine's.
"""

from __future__ import annotations

from collections.abc import Callable

from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.holdout import HeadHoldout, guard_head, guard_original
from autoresearch.optimizer.cycle.line import Draft, EvalSpend, HeadMeasure
from autoresearch.optimizer.cycle.measure import Spend, measure
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
    rows = measure(session, session.ws, run_dir, artifact_id(session.ws), 1, spend)
    rows, held = guard_original(session, run_dir, rows)
    session.set_baseline(rows)
    return _head_line(session, draft, rows, spend, "original", held)


def _rebaseline_once(session: Session) -> Iteration:
    cycle = session.history.last_cycle + 1
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name, session.eval_key, mutation="re-baseline")
    spend = Spend()
    rows = measure(session, session.ws, run_dir, artifact_id(session.ws), 1, spend)
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
