"""A cycle with parallel candidates (`search.candidates` > 1): K mutations from HEAD, each in its own git
worktree, evaluated at once, the best one judged against HEAD and committed in the checkout.

With `search.overlap` (the default), the next cycle's K mutations run while this cycle's candidates are
evaluated and decided, so that a cycle takes the longer of the two rather than both
(autoresearch.optimizer.cycle.siblings: the window they run in, and how their edits are carried onto the
KEEP this cycle makes). Not when the next cycle is already known not to start (autoresearch.optimizer.cycle.stops.foreseen).

The checkout only ever receives the winner, copied in and committed in one critical block with the
cycle's one iterations line; every other candidate's patch is saved under its run directory first.
The worktrees are removed however the cycle ends (and by start-up after a kill -9).
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial

from autoresearch.optimizer import faults, signals
from autoresearch.optimizer.cycle import checks, stops
from autoresearch.optimizer.cycle.conclude import decide
from autoresearch.optimizer.cycle.confirm import confirm, needs_confirmation, unconfirmed
from autoresearch.optimizer.cycle.decide import compare_for_goal, rule_of
from autoresearch.optimizer.cycle.evaluation import judge_candidate
from autoresearch.optimizer.cycle.gating import Rows, scored_pair
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.line import Draft
from autoresearch.optimizer.cycle.sequential import Place
from autoresearch.optimizer.cycle.siblings import (
    MERGE,
    Batch,
    Mutating,
    Sibling,
    best_of,
    exhausted,
    finish,
    mutate_now,
    new_batch,
    owed,
    picked_over,
    rebase,
    redo,
    save_patches,
    start,
)
from autoresearch.optimizer.cycle.stops import RunStopped, stop_requested
from autoresearch.optimizer.cycle.threads import all_at_once
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.merge import UnsafePatch, merge_patches
from autoresearch.optimizer.gitrepo.workspace import Workspace, candidate_patch, everything_changed, inside
from autoresearch.plumbing import process
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.policies.merging import merge_parents
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.evaluators.registry import build as build_evaluator


def cycle(session: Session, number: int, ahead: Batch | None = None) -> Batch | None:
    """Cycles 2+ with K > 1 candidates; the same outcomes as autoresearch.optimizer.cycle.candidate, once per
    cycle. `ahead` is this cycle's batch when the cycle before mutated it; returned is the next cycle's, when
    this one mutated it (the loop hands it back, or `discard`s it when the run stops)."""
    batch = ahead or new_batch(session, number)
    for s in batch.siblings if ahead else ():  # a line's duration is its cycle's own span, from the decision before
        s.draft.started = time.monotonic()
    following: Mutating | None = None  # the next cycle's batch while its mutators run
    made: Batch | None = None  # and once they have ended
    try:
        if ahead is None:
            mutate_now(session, batch)
        redo(session, batch)
        exhausted(batch)
        faults.point("after-mutate")
        if stop_requested(session):
            save_patches(batch.siblings, None)  # made while the STOP file appeared: saved, not evaluated
            raise RunStopped("stop-requested")
        if session.config.search.overlap and not stops.foreseen(session, stops.limits_of(session)):
            following = start(session, new_batch(session, number + 1), batch.run_dir)
            get().info("mutating ahead", next_cycle=number + 1, candidates=len(following.batch.siblings))
        winner = _judge(session, batch)
        save_patches(batch.siblings, winner)
        if following is not None:
            ending, made = following, following.batch
            following = None
            finish(session, ending)
        picked, winner = winner, _checked(session, _intact(winner))
        if picked is not None and winner is None:
            save_patches([picked], None)
        old_head = session.ws.head()
        decide(session, number, batch, winner, made)
        if made is not None and winner is not None:
            rebase(session, made, old_head)
        return made
    except BaseException:
        if following is not None:
            _abandon(session, following)
        elif made is not None:
            discard(session, made)
        _save_quietly(batch.siblings)
        raise
    finally:
        worktrees.clear(session.ws, session.paths.meta, batch.name)


def discard(session: Session, batch: Batch) -> None:
    """A batch mutated ahead for a cycle that will not run (the run stops): its patches saved, its worktrees
    removed. Its run directory stays, with no line (its mutations' spend is on the line of the cycle they
    ran beside, unless that cycle ended in an exception: then it is only said here)."""
    try:
        _save_quietly(batch.siblings)
    finally:
        worktrees.clear(session.ws, session.paths.meta, batch.name)
    unrecorded = sum(owed(s).cost_usd for s in batch.siblings)
    get().warning(
        f"the {len(batch.siblings)} candidates mutated ahead for cycle {batch.number} were not evaluated "
        f"(the run stopped); their patches are in {batch.run_dir}",
        **({"mutation_cost_usd_on_no_line": round(unrecorded, 6)} if unrecorded else {}),
    )


def _abandon(session: Session, following: Mutating) -> None:
    """This cycle ended in an exception while the next one's mutators ran: they are ended (their commands at
    once, an LLM mutator at its next turn) and waited for, the window closed (the checkout restored), their
    work saved. An error of theirs is logged, not raised over the one that is ending the run."""
    try:
        with process.refusing():  # the run is ending: their commands now, an LLM mutator at its next turn
            signals.end_started()
            finish(session, following)
    except Exception as exc:
        get().warning("the mutations made ahead ended in an error too", error=str(exc)[:300])
    finally:
        discard(session, following.batch)


def _save_quietly(siblings: list[Sibling]) -> None:
    """The patches of a cycle an exception is ending (no idea lost), an error of git's meanwhile logged rather
    than raised over it."""
    try:
        save_patches(siblings, None)
    except Exception as exc:
        get().warning("could not save the candidates' patches", error=str(exc)[:300])


def _judge(session: Session, batch: Batch) -> Sibling | None:
    """The batch evaluated (with a merge of its winners when worth it), the best kept candidate picked and,
    when the rule asks, confirmed: the cycle's winner, or None."""
    siblings = batch.siblings
    live = sum(s.error is None for s in siblings)
    if _budget_left(session, siblings):
        _evaluate_all(session, siblings)
    else:
        for s in siblings:
            if s.error is None:
                s.error = ("budget", "not evaluated: the budget was spent by the cycle's mutations")
    merged = _merge(session, batch)
    best = best_of([s for s in siblings if s.keep], session)
    head = _head_place(session, batch, live) if best is not None and rule_of(session.config).sequential else None
    if merged is None:
        return _confirmed(session, siblings, best, head)
    return _with_merge(session, siblings, merged, best, live, head)


def _head_place(session: Session, batch: Batch, live: int) -> Place:
    """A worktree at HEAD with an evaluator of a candidate's share of the workers, where the pick's test draws
    HEAD's runs beside its own (autoresearch.optimizer.cycle.sequential)."""
    ws = worktrees.add_head(session.ws, session.paths.meta, batch.name)
    return Place(ws, _evaluator(session, ws, _share(session, live)))


def _with_merge(
    session: Session, siblings: list[Sibling], merged: Sibling, best: Sibling | None, live: int, head: Place | None
) -> Sibling | None:
    """The merge evaluated while the best sibling is confirmed, so that a cycle with a merge takes two evals'
    time rather than three; the merge, when picked over it, is confirmed in turn (one eval run more than
    confirming the merge alone), and the best sibling is kept if the merge is not confirmed but it was.
    The merge has what of `eval.workers` the confirmation's evaluator does not."""
    singles = list(siblings)
    siblings.append(merged)
    workers = session.config.eval.workers
    confirmed: list[Sibling | None] = []
    all_at_once(
        [
            lambda: _evaluate_all(session, [merged], max(1, workers - max(1, workers // live))),
            lambda: confirmed.append(_confirmed(session, singles, best, head)),
        ]
    )
    if not merged.keep or (best is not None and not picked_over(merged, best, session)):
        return confirmed[0]
    picked = _confirmed(session, siblings, merged, head)
    if picked is None:
        return confirmed[0]
    if confirmed[0] is not None:
        confirmed[0].unkeep(merge_won=True)
    return picked


def _budget_left(session: Session, siblings: list[Sibling], evaluated: bool = False) -> bool:
    """Whether the evaluations may start (`evaluated`: one more may, after theirs): a budget the cycle's
    spend so far exhausted starts none."""
    budget = session.config.stop.budget_usd
    evals = sum(s.draft.spend.cost_usd or 0.0 for s in siblings) if evaluated else 0.0
    spent = session.history.spent_usd + sum(owed(s).cost_usd for s in siblings) + evals
    return not budget or spent < budget


def _evaluate_all(session: Session, siblings: list[Sibling], workers: int | None = None) -> None:
    """The mutated candidates evaluated at once, one run each, `workers` (`eval.workers` unless a confirmation
    runs beside them) shared between them, each judged against HEAD on it (under a sequential rule, whether
    it may be picked: autoresearch.optimizer.cycle.confirm tests the pick)."""
    live = [s for s in siblings if s.error is None]
    if not live:
        return
    share = _share(session, len(live), workers)
    all_at_once([partial(_evaluate_one, session, s, share) for s in live])


def _share(session: Session, among: int, workers: int | None = None) -> EvalConfig:
    """The eval's settings with a `1/among` share of `workers` (`eval.workers` unless given)."""
    total = session.config.eval.workers if workers is None else workers
    return session.config.eval.model_copy(update={"workers": max(1, total // among)})


def _evaluator(session: Session, ws: Workspace, eval_config: EvalConfig) -> Evaluator:
    return build_evaluator(eval_config, ws.root, session.config.executor_at(ws.root))


def _evaluate_one(session: Session, s: Sibling, eval_config: EvalConfig) -> None:
    s.place = place = Place(s.ws, _evaluator(session, s.ws, eval_config))
    s.key = artifact_key(s.ws)
    try:
        assessed = judge_candidate(session, s.run_dir, s.draft, place)
        s.rows, s.held, s.keep = assessed.rows, assessed.held, assessed.keep
    except EvalFailed as exc:
        s.error = ("eval-failed", str(exc))


def _merge(session: Session, batch: Batch) -> Sibling | None:
    """The merge candidate: when two or more siblings the rule keeps each win tests the others do not, their patches
    three-way merged onto HEAD (in the object store) and checked out in a worktree of its own; None when
    no merge is worth trying, the patches conflict, or the budget or a STOP file says no more evals."""
    siblings = batch.siblings
    baseline = session.holdout.partition(session.baseline_rows)[0] if session.holdout else session.baseline_rows
    # only candidates the rule keeps: with a noisy eval every candidate wins a few tests by chance, and a merge
    # of those was tried nearly every cycle, one more eval on the cycle's critical path that was seldom kept
    wins = [_won(session, s, baseline) if s.keep else set() for s in siblings]
    parents = merge_parents(wins)
    if not parents:
        return None
    if stops.stop_waiting(session) or not _budget_left(session, siblings, evaluated=True):
        get().info("merge skipped: the run is stopping or the budget is spent", candidates=parents)
        return None
    ws = session.ws
    patches = [candidate_patch(siblings[i].ws) for i in parents]
    try:
        tree = merge_patches(ws.root, ws.head(), patches, ws.artifact)
    except UnsafePatch as exc:
        get().warning("merge refused", candidates=parents, error=str(exc))
        return None
    if tree is None:
        get().info("merge skipped: the candidates' patches conflict", candidates=parents)
        return None
    index = len(siblings)
    merged_ws = worktrees.add_tree(ws, session.paths.meta, batch.name, index, tree)
    sib_dir = batch.run_dir / f"candidate-{index}"
    sib_dir.mkdir(parents=True, exist_ok=True)
    summary = " + ".join(siblings[i].draft.mutation or "" for i in parents)
    draft = Draft(batch.number, batch.run_dir.name, session.eval_key, mutation=summary)
    get().info("merging", candidates=parents)
    return Sibling(
        index,
        MERGE,
        merged_ws,
        draft,
        session.mutator,
        sib_dir,
        merge_of=parents,
        parents=", ".join(siblings[i].strategy.name for i in parents),
    )


def _checked(session: Session, winner: Sibling | None) -> Sibling | None:
    """The winner, if it passes `gates.checks` (run in a copy of its worktree's artifact), else None."""
    if winner is None or winner.draft.assessment is None:
        return winner
    assessed = checks.judged(session, winner.draft.assessment, winner.ws, winner.run_dir, winner.run_dir.name)
    if assessed.keep:
        return winner
    winner.keep, winner.draft.assessment = False, assessed
    return None


def _intact(winner: Sibling | None) -> Sibling | None:
    """The winner, if its worktree is still what was evaluated: the same artifact, and no committed file
    changed (an eval script, a grader). Something else that writes there (a mutator of the next cycle, which
    runs meanwhile, gone astray) must not get its edit committed unmeasured, nor a score it forged."""
    if winner is None:
        return None
    try:
        changed = [
            path
            for path, code in everything_changed(winner.ws).items()
            if code not in ("??", "!!") and not inside(winner.ws, path)
        ]
        if artifact_key(winner.ws) != winner.key:
            changed.insert(0, winner.ws.artifact)
    except IntegrityError:  # git no longer reads it as a worktree: its .git file was changed
        changed = [".git"]
    if not changed:
        return winner
    winner.error = ("out-of-scope", f"its worktree changed after it was evaluated: {', '.join(changed[:5])}")
    winner.unkeep(not_kept=winner.error[1])
    get().warning("the cycle's pick is not kept: its worktree changed after it was evaluated", paths=changed[:5])
    return None


def _won(session: Session, s: Sibling, baseline: Rows) -> set[str]:
    """The tests a sibling won against HEAD, as its rule compared them (none for one not evaluated)."""
    if s.rows is None or s.error is not None:
        return set()
    assert s.draft.assessment is not None
    head, rows = scored_pair(session.config, s.draft.assessment.sizes, baseline, s.rows)
    return {m.test_id for m in compare_for_goal(session.config, head, rows).matched if m.outcome == "win"}


def _confirmed(
    session: Session, siblings: list[Sibling], winner: Sibling | None, head: Place | None = None
) -> Sibling | None:
    """The winner, if a second run of it keeps it too, holding then the rows it was kept on
    (autoresearch.optimizer.cycle.confirm says when one is needed and how it decides; `head` is where a
    sequential test draws HEAD's runs)."""
    judged = sum(s.rows is not None for s in siblings)
    if winner is None or not needs_confirmation(session.config, judged):
        return winner
    assert winner.place is not None and winner.rows is not None and winner.held is not None
    if not _budget_left(session, siblings, evaluated=True):
        unconfirmed(winner.draft, "the budget was spent before a second run")
        confirmed = None
    else:
        get().info("confirming", candidate=winner.index, strategy=winner.strategy.name)
        first = winner.rows + winner.held  # its first run, held-out tests included
        place = replace(winner.place, head=head)
        confirmed = confirm(session, place, winner.run_dir / "confirm", winner.draft, first)
    if confirmed is None:
        winner.keep = False
        return None
    winner.rows, winner.held = confirmed.rows, confirmed.held
    return winner
