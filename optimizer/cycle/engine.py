"""The cycle, cycles 2+: a batch of candidates, one or K (`search.candidates`), from the mutation to the line.

One path for every batch: mutate → evaluate and judge → pick (the best kept; of several, merged when worth
it and confirmed on runs that did not pick it) → `gates.checks` → the one line and the one commit-or-settle
(autoresearch.optimizer.cycle.conclude). Where the candidates live is the batch's `Site`
(autoresearch.optimizer.cycle.batch): K = 1 is a batch of one in the checkout
(autoresearch.optimizer.cycle.in_checkout), K > 1 a batch in worktrees whose winner is copied into the checkout
(autoresearch.optimizer.cycle.in_worktrees); with `executor: ray`, either's mutations run on the cluster
(autoresearch.optimizer.cycle.on_cluster).

With several candidates and `search.overlap` (the default, for mutators that cannot reach the results:
autoresearch.optimizer.cycle.ahead), the next cycle's K mutations run while this cycle's candidates are
evaluated and decided, so that a cycle takes the longer of the two rather than both
(autoresearch.optimizer.cycle.window: the window they run in, and how their edits are carried onto the KEEP
this cycle makes). Not when the next cycle is already known not to start
(autoresearch.optimizer.cycle.stops.foreseen), nor while the edits made ahead mostly fail to carry
(autoresearch.optimizer.cycle.carryrate).
"""

from __future__ import annotations

import time
from dataclasses import replace

from autoresearch.optimizer import signals
from autoresearch.optimizer.cycle import (
    ahead,
    carryrate,
    checks,
    in_checkout,
    in_worktrees,
    on_cluster,
    parents,
    stops,
    window,
)
from autoresearch.optimizer.cycle.batch import Batch, Sibling, best_of, owed, picked_over
from autoresearch.optimizer.cycle.conclude import decide
from autoresearch.optimizer.cycle.confirm import confirm, needs_confirmation, unconfirmed
from autoresearch.optimizer.cycle.decide import rule_of
from autoresearch.optimizer.cycle.merging import merged
from autoresearch.optimizer.cycle.sequential import Place
from autoresearch.optimizer.cycle.stops import RunStopped, stop_requested
from autoresearch.optimizer.cycle.threads import all_at_once
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.plumbing import faults, process, trees


def cycle(session: Session, number: int, ahead: Batch | None = None) -> Batch | None:
    """One cycle. `ahead` is this cycle's batch when the cycle before mutated it; returned is the next cycle's,
    when this one mutated it (the loop hands it back, or `discard`s it when the run stops)."""
    batch = ahead or new_batch(session, number)
    site = batch.site
    for s in batch.siblings if ahead else ():  # a line's duration is its cycle's own span, from the decision before
        s.draft.started = time.monotonic()
    following: window.Mutating | None = None  # the next cycle's batch while its mutators run
    made: Batch | None = None  # and once they have ended
    try:
        if ahead is None:
            site.mutate(session, batch)
        window.redo(session, batch)
        exhausted(batch)
        if batch.live or site.several:  # a lone candidate whose mutation failed is written down at once
            faults.point("after-mutate")
            if stop_requested(session):
                site.shelve(batch.siblings)  # made while the STOP file appeared: saved, not evaluated
                raise RunStopped("stop-requested")
            following = _mutate_ahead(session, batch)
        winner = _judge(session, batch)
        site.set_aside(batch.siblings, winner)
        if following is not None:
            ending, made = following, following.batch
            following = None
            window.finish(session, ending)
        picked, winner = winner, _checked(session, batch, site.intact(winner))
        if picked is not None and winner is None:
            site.set_aside([picked], None)
        old_head = session.ws.head() if made is not None else ""
        site.conclude(session, batch, decide(session, batch, winner, made))
        parents.keep(session, batch, winner)
        if made is not None:
            window.carry(session, made, old_head if winner is not None else None)
        return made
    except BaseException:
        if following is not None:
            _abandon(session, following)
        elif made is not None:
            discard(session, made)
        site.salvage(batch.siblings)
        raise
    finally:
        site.close(session, batch)


def new_batch(session: Session, number: int) -> Batch:
    """The cycle's run directory and its candidates, not yet mutated: one in the checkout, or K in worktrees
    (their mutations on the cluster with `executor: ray`)."""
    if session.config.search.candidates > 1:
        return _several(session, number)
    if session.config.executor.kind == "ray":
        return on_cluster.lone_batch(session, number)
    return in_checkout.new_batch(session, number)


def _several(session: Session, number: int) -> Batch:
    """K candidates in worktrees, mutated here, or on the cluster with `executor: ray`."""
    if session.config.executor.kind == "ray":
        return on_cluster.new_batch(session, number)
    return in_worktrees.new_batch(session, number)


def exhausted(batch: Batch) -> None:
    """No cycle happens when every mutator has run out of mutations: no run directory is left behind."""
    if all(s.error and s.error[0] == "exhausted" for s in batch.siblings):
        trees.remove(batch.run_dir)
        raise RunStopped("mutations-exhausted")


def discard(session: Session, batch: Batch) -> None:
    """A batch mutated ahead for a cycle that will not run (the run stops): its patches saved, its worktrees
    removed. Its run directory stays, with no line (its mutations' spend is on the line of the cycle they
    ran beside, unless that cycle ended in an exception: then it is only said here)."""
    try:
        batch.site.salvage(batch.siblings)
    finally:
        batch.site.close(session, batch)
    unrecorded = sum(owed(s).cost_usd for s in batch.siblings)
    get().warning(
        f"the {len(batch.siblings)} candidates mutated ahead for cycle {batch.number} were not evaluated "
        f"(the run stopped); their patches are in {batch.run_dir}",
        **({"mutation_cost_usd_on_no_line": round(unrecorded, 6)} if unrecorded else {}),
    )


def _mutate_ahead(session: Session, batch: Batch) -> window.Mutating | None:
    """The next cycle's batch started, its mutators running while this one is evaluated and decided: of
    several candidates, with `search.overlap` (autoresearch.optimizer.cycle.ahead), unless the next cycle is
    already known not to start or the edits made ahead mostly fail to carry."""
    if not (batch.site.several and ahead.allowed(session)):
        return None
    if stops.foreseen(session, stops.limits_of(session)) or not carryrate.wanted(session, batch):
        return None
    following = window.start(session, _several(session, batch.number + 1), batch.run_dir)
    get().info("mutating ahead", next_cycle=batch.number + 1, candidates=len(following.batch.siblings))
    return following


def _abandon(session: Session, following: window.Mutating) -> None:
    """This cycle ended in an exception while the next one's mutators ran: they are ended (their commands at
    once, an LLM mutator at its next turn) and waited for, the window closed (the checkout restored), their
    work saved. An error of theirs is logged, not raised over the one that is ending the run."""
    try:
        with process.refusing():  # the run is ending: their commands now, an LLM mutator at its next turn
            signals.end_started()
            window.finish(session, following)
    except Exception as exc:
        get().warning("the mutations made ahead ended in an error too", error=str(exc)[:300])
    finally:
        discard(session, following.batch)


def _judge(session: Session, batch: Batch) -> Sibling | None:
    """The batch evaluated (of several, with a merge of its winners when worth it), the best kept candidate
    picked and, when the rule asks, confirmed: the cycle's winner, or None."""
    siblings, site = batch.siblings, batch.site
    live = sum(s.error is None for s in siblings)
    if not site.several or _budget_left(session, siblings):
        site.evaluate(session, siblings)
    else:
        for s in siblings:
            if s.error is None:
                s.error = ("budget", "not evaluated: the budget was spent by the cycle's mutations")
    best = best_of([s for s in siblings if s.keep], session)
    if not site.several:  # a lone candidate's evaluation decided it (under a sequential rule, by its whole test)
        return best
    merge = merged(session, batch, _budget_left(session, siblings, evaluated=True))
    head = _head_place(session, batch, live) if best is not None and rule_of(session.config).sequential else None
    if merge is None:
        return _confirmed(session, siblings, best, head)
    return _with_merge(session, batch, merge, best, live, head)


def _head_place(session: Session, batch: Batch, live: int) -> Place:
    """A worktree at HEAD with an evaluator of a candidate's share of the workers, where the pick's test draws
    HEAD's runs beside its own (autoresearch.optimizer.cycle.sequential)."""
    ws = worktrees.add_head(session.ws, session.paths.meta, batch.name)
    return Place(ws, in_worktrees.evaluator(session, ws, in_worktrees.share(session, live)))


def _with_merge(
    session: Session, batch: Batch, merge: Sibling, best: Sibling | None, live: int, head: Place | None
) -> Sibling | None:
    """The merge evaluated while the best sibling is confirmed, so that a cycle with a merge takes two evals'
    time rather than three; the merge, when picked over it, is confirmed in turn (one eval run more than
    confirming the merge alone), and the best sibling is kept if the merge is not confirmed but it was.
    The merge has what of `eval.workers` the confirmation's evaluator does not."""
    siblings = batch.siblings
    singles = list(siblings)
    siblings.append(merge)
    workers = session.config.eval.workers
    confirmed: list[Sibling | None] = []
    all_at_once(
        [
            lambda: batch.site.evaluate(session, [merge], max(1, workers - max(1, workers // live))),
            lambda: confirmed.append(_confirmed(session, singles, best, head)),
        ]
    )
    if not merge.keep or (best is not None and not picked_over(merge, best, session)):
        return confirmed[0]
    picked = _confirmed(session, siblings, merge, head)
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


def _checked(session: Session, batch: Batch, winner: Sibling | None) -> Sibling | None:
    """The winner, if it passes `gates.checks` (run on a copy of its artifact), else None."""
    if winner is None or winner.draft.assessment is None:
        return winner
    assessed = checks.judged(session, winner.draft.assessment, winner.ws, winner.run_dir, batch.name)
    if assessed.keep:
        return winner
    winner.keep, winner.draft.assessment = False, assessed
    return None


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
