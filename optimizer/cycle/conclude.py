"""A cycle's end, whatever its candidates (one in the checkout, or the pick of several copied into it): its
one line (`decide`), then its git step and that line in one critical block (`conclude`), a KEEP committed,
anything else settled.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from autoresearch.optimizer import signals
from autoresearch.optimizer.cycle import pending, tree
from autoresearch.optimizer.cycle.batch import Batch, Sibling, best_of, settle
from autoresearch.optimizer.cycle.eval_writes import Evaluated
from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.line import CycleSpend, EvalSpend, Failure
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.heads import head_moved
from autoresearch.plumbing import faults
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.redact import redact
from autoresearch.trajectory.iterations import Candidate, Decision, Iteration

COMMIT_PREFIX = "autoresearch cycle "


@dataclass(frozen=True)
class Kept:
    """A KEEP's commit message, the rows it becomes HEAD's results with (train, held-out), and the artifact
    they were measured on (what is committed)."""

    message: str
    rows: Rows
    held: Rows
    evaluated: Evaluated | None


def conclude(session: Session, cand: tree.Candidate, line: Iteration, kept: Kept | None) -> None:
    """The one commit-or-settle of every cycle: a KEEP's commit (its line written down first, see
    autoresearch.optimizer.cycle.pending), or a candidate not kept saved and the artifact back at HEAD; then
    the line, with no signal in between (a resumed run then starts from exactly this decision)."""
    with signals.critical():
        if kept is None:
            cand.discard()
        require_head(session, cand)
        if kept is not None:
            faults.point("before-commit")
            sha, line = pending.commit(session.paths, cand, line, kept.message, kept.evaluated)
            faults.point("after-commit")
            session.kept(sha, kept.rows, kept.held)
        record(session, line)


def require_head(session: Session, cand: tree.Candidate) -> None:
    """Before a decision is written: HEAD is where this run left it. A commit the user made on the
    branch meanwhile (or a branch switch) is never built upon: the run stops, the candidate saved."""
    moved = head_moved(session.ws, *session.head)
    if moved:
        cand.discard()
        branch, sha = session.head
        raise IntegrityError(
            f"{moved} during the run; autoresearch commits only on top of its own last commit {sha[:10]}. "
            f"Move your work aside (git branch my-work; git checkout {(branch or sha).removeprefix('refs/heads/')}; "
            f"git reset --keep {sha[:10]}) and run again, or start a new experiment from here with --restart"
        )


def commit_message(cycle: int, summary: str) -> str:
    return f"{COMMIT_PREFIX}{cycle}: {summary}"


def failed(reason: str, message: str) -> Failure:
    """An error cycle's failure, logged; its message redacted (it may quote a provider's or a command's words)."""
    message = redact(message)
    get().warning("cycle failed", reason=reason, error=message)
    return Failure(reason, message)


@dataclass(frozen=True)
class Decided:
    """A cycle's decision written out: its one line, a KEEP's commit, and the candidate whose run the line
    shows (the winner, or the best evaluated; None for an error)."""

    line: Iteration
    kept: Kept | None
    shown: Sibling | None


def decide(session: Session, batch: Batch, winner: Sibling | None, ahead: Batch | None) -> Decided:
    """A cycle's one line: the winner's (a KEEP), else the best evaluated candidate's (a DROP), else the first
    error's. Of several candidates, it holds the shown one's strategy, every candidate's entry and the cycle's
    spend, and a KEEP's commit message names the winner's strategy; `ahead` is the next cycle's batch, mutated
    meanwhile, whose spend is on this line."""
    siblings = batch.siblings
    evaluated = [s for s in siblings if s.rows is not None]
    shown = winner or best_of(evaluated, session) or (evaluated[0] if evaluated else None)
    subject = shown or siblings[0]
    decision: Decision = "keep" if winner else "drop" if shown else "error"
    failure = None
    if shown is None:
        assert subject.error is not None, "a candidate neither evaluated nor failed is not decided"
        failure = failed(*subject.error)
    if batch.site.several:
        entries = [_entry(session, s, winner) for s in siblings]
        totals = _totals(siblings, ahead.siblings if ahead else [])
        name = subject.strategy.name
        line = subject.draft.finish(
            decision,
            failure=failure,
            cycle_spend=totals,
            strategy=name,
            candidates=entries,
            parent=subject.parent or None,
            carry=batch.carry,
        )
    else:
        line = subject.draft.finish(decision, failure=failure)
    return Decided(line, _kept(batch, winner), shown)


def _kept(batch: Batch, winner: Sibling | None) -> Kept | None:
    """A winner's commit: its message (of several, naming its strategy, or a merge's parents') and rows."""
    if winner is None:
        return None
    assert winner.rows is not None and winner.held is not None
    summary = winner.draft.mutation or ""
    if batch.site.several:
        how = f"merge of strategies {winner.parents}" if winner.merge_of else f"strategy {winner.strategy.name}"
        how += f", from candidate {winner.parent}" if winner.parent else ""
        summary = f"{summary} ({how})"
    return Kept(commit_message(batch.number, summary), winner.rows, winner.held, winner.evaluated)


def _totals(siblings: list[Sibling], ahead: list[Sibling]) -> CycleSpend:
    """A cycle's spend (the budget reads it from the line): its candidates' evals, eval runs included, and the
    mutations that ran during it and are on no line yet: its own, unless they were made ahead (then they
    are on the line before), and those it made ahead for the next cycle."""
    evals = EvalSpend(
        cost_usd=round(sum(s.draft.spend.cost_usd or 0.0 for s in siblings), 6),
        eval_runs=sum(_eval_runs(s) for s in siblings),
        cache_hits=sum(s.draft.spend.cache_hits or 0 for s in siblings),
        lost_attempts=sum(s.draft.spend.lost_attempts or 0 for s in siblings) or None,
    )
    return CycleSpend(evals, settle(siblings + ahead))


def _eval_runs(s: Sibling) -> int:
    """Its eval runs: as its line counts them, else 1 for a run that ended (an eval that failed included)."""
    if s.draft.spend.eval_runs is not None:
        return s.draft.spend.eval_runs
    return int(s.rows is not None or (s.error is not None and s.error[0] == "eval-failed"))


def _entry(session: Session, s: Sibling, winner: Sibling | None) -> Candidate:
    a = s.draft.assessment
    patch = s.run_dir / "candidate.patch"
    reason = s.error[1][:300] if s.error else (str(a.reason) if a else None)
    if s.keep and s is not winner:  # its own run passed, and nothing else unkept it
        reason = f"{reason}; another candidate was picked (a better first run)"
    return Candidate(
        index=s.index,
        decision="keep" if s is winner else ("error" if s.error else "drop"),
        strategy=s.strategy.name,
        summary=s.draft.mutation or "",
        score=a.score if a else None,
        wins=a.summary.wins if a else None,
        losses=a.summary.losses if a else None,
        reason=reason,
        cost_usd=round((s.draft.spend.cost_usd or 0.0) + s.mutated.cost_usd, 6),
        lost_attempts=s.mutated.lost_attempts or None,
        eval_lost_attempts=s.draft.spend.lost_attempts,
        patch=os.path.relpath(patch, session.paths.results_dir) if patch.is_file() else None,
        merge_of=s.merge_of,
        parent=s.parent or None,
    )
