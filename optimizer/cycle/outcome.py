"""A cycle with parallel candidates written down: its one iterations line (the winner's fields, or the best
candidate's, or the first error's, with every candidate's entry and the cycle's spend) and, for a winner, its
commit in the checkout, both in one critical block."""

from __future__ import annotations

import os
from pathlib import Path

from autoresearch.optimizer import faults, signals
from autoresearch.optimizer.cycle import pending, tree
from autoresearch.optimizer.cycle.candidate import commit_message, failed, require_head
from autoresearch.optimizer.cycle.line import CycleSpend, EvalSpend
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.cycle.siblings import Batch, Sibling, best_of, settle
from autoresearch.optimizer.experiment.session import Session
from autoresearch.runs.samples import write_index
from autoresearch.trajectory.iterations import Candidate


def decide(session: Session, number: int, batch: Batch, winner: Sibling | None, ahead: Batch | None) -> None:
    """The cycle's one line, and for a winner its commit in the checkout, in one critical block; `ahead` is
    the next cycle's batch, mutated meanwhile, whose spend is on this line."""
    run_dir, siblings = batch.run_dir, batch.siblings
    entries = [_entry(session, s, winner) for s in siblings]
    totals = _totals(siblings, ahead.siblings if ahead else [])
    if winner is not None:
        return _commit(session, number, run_dir, winner, entries, totals)
    evaluated = [s for s in siblings if s.rows is not None]
    if evaluated:
        best = best_of(evaluated, session) or evaluated[0]
        assert best.rows is not None
        write_index(run_dir, best.rows)
        line = best.draft.finish("drop", cycle_spend=totals, strategy=best.strategy.name, candidates=entries)
    else:
        first = siblings[0]
        assert first.error is not None
        failure = failed(first.error[0], first.error[1])
        line = first.draft.finish(
            "error", failure=failure, cycle_spend=totals, strategy=first.strategy.name, candidates=entries
        )
    with signals.critical():
        require_head(session, tree.Candidate(session.ws, run_dir))
        record(session, line)


def _commit(
    session: Session, number: int, run_dir: Path, winner: Sibling, entries: list[Candidate], totals: CycleSpend
) -> None:
    assert winner.rows is not None and winner.held is not None
    write_index(run_dir, winner.rows)  # the run just decided, as the next mutators and a resume read it
    if session.holdout is not None:  # and its held-out rows, where a resume reads HEAD's
        write_index(session.holdout.root / run_dir.name, winner.held)
    summary = winner.draft.mutation or ""
    with tree.in_tree(session.ws, run_dir) as cand:
        tree.replace_artifact(winner.ws.artifact_path, session.ws.artifact_path)
        with signals.critical():
            require_head(session, cand)
            faults.point("before-commit")
            how = f"merge of strategies {winner.parents}" if winner.merge_of else f"strategy {winner.strategy.name}"
            line = winner.draft.finish("keep", cycle_spend=totals, strategy=winner.strategy.name, candidates=entries)
            sha, line = pending.commit(session.paths, cand, line, commit_message(number, f"{summary} ({how})"))
            faults.point("after-commit")
            session.kept(sha, winner.rows, winner.held)
            record(session, line)


def _totals(siblings: list[Sibling], ahead: list[Sibling]) -> CycleSpend:
    """A cycle's spend (the budget reads it from the line): its candidates' evals, eval runs included, and the
    mutations that ran during it and are on no line yet: its own, unless they were made ahead (then they
    are on the line before), and those it made ahead for the next cycle."""
    ran = lambda s: s.rows is not None or (s.error is not None and s.error[0] == "eval-failed")  # noqa: E731
    runs = lambda s: s.draft.spend.eval_runs if s.draft.spend.eval_runs is not None else int(ran(s))  # noqa: E731
    evals = EvalSpend(
        cost_usd=round(sum(s.draft.spend.cost_usd or 0.0 for s in siblings), 6),
        eval_runs=sum(runs(s) for s in siblings),
        cache_hits=sum(s.draft.spend.cache_hits or 0 for s in siblings),
    )
    return CycleSpend(evals, settle(siblings + ahead))


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
        patch=os.path.relpath(patch, session.paths.results_dir) if patch.is_file() else None,
        merge_of=s.merge_of,
    )
