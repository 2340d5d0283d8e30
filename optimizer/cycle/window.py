"""The mutation window of K candidates in worktrees (autoresearch.optimizer.cycle.in_worktrees): their
mutators run at once while the user's checkout is watched, and, when they were mutated ahead (while the cycle before was evaluated and
decided), their edits carried onto the KEEP that cycle made.

The mutation window is `start` to `finish`: the scope guard settles and the experiment's records are
read before it, and compared after it (a change in the checkout, whoever made it, is saved and undone and
makes every candidate of the batch out of scope). Nothing of the daemon's writes into the checkout in
between: the cycle evaluated meanwhile works in its own worktrees, its samples are held in memory until the
guard has compared, and its decision (a commit) waits for `finish`.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted
from autoresearch.optimizer.cycle import parents
from autoresearch.optimizer.cycle.batch import CONFLICT, Batch, Sibling, save_patches
from autoresearch.optimizer.cycle.line import Carry, MutationSpend
from autoresearch.optimizer.cycle.mutate import (
    check_worktree,
    head_moved_error,
    mutation_request,
    open_window,
    run_mutator,
    undo_outside,
)
from autoresearch.optimizer.cycle.threads import submit, wait_all
from autoresearch.optimizer.daemonlog import bind, get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.heads import head_state, reattach, switched_from
from autoresearch.optimizer.gitrepo.merge import UnsafePatch, rebase_patch
from autoresearch.optimizer.gitrepo.workspace import candidate_patch
from autoresearch.optimizer.guard import trusted
from autoresearch.plumbing import faults
from autoresearch.plumbing.errors import SafetyStop


@dataclass
class Mutating:
    """A batch whose mutators run in threads, the checkout watched meanwhile, until `finish`."""

    batch: Batch
    pool: ThreadPoolExecutor
    futures: list[Future[None]]
    kept: trusted.Snapshot
    head: str
    branch: str | None
    held: ExitStack  # the result cache's writes, kept in memory until the guard has compared


def mutate_now(session: Session, batch: Batch) -> None:
    """Mutate a batch in the cycle that evaluates it (the first of a run, or when nothing was made ahead)."""
    session.set_phase("mutate")
    get().info("mutating", candidates=len(batch.siblings))
    finish(session, start(session, batch))


def start(session: Session, batch: Batch, evaluated: Path | None = None, redo: bool = False) -> Mutating:
    """Open the mutation window and start the batch's mutators (with `redo`, only those whose edit did not
    carry onto a new HEAD, in fresh worktrees); `evaluated` is the run directory of the cycle evaluated
    meanwhile, whose held-out results are written during the window."""
    ws = session.ws
    chosen = [s for s in batch.siblings if s.error is not None and s.error[0] == CONFLICT] if redo else batch.siblings
    _drop_leftover_changelogs(session, chosen)
    kept = open_window(session, batch.run_dir, evaluated)
    held = ExitStack()
    held.enter_context(session.cache.held())
    branch, head = head_state(ws)
    faults.point("before-mutate")
    for s in chosen if redo else ():  # a fresh worktree at HEAD for the second attempt
        s.ws, s.error = worktrees.add_tree(ws, session.paths.meta, batch.name, s.index, "HEAD^{tree}"), None
        parents.at_head(s)
    pool = ThreadPoolExecutor(max_workers=max(1, len(chosen)), thread_name_prefix="mutator")
    futures = [submit(pool, _mutate_one, session, batch.number, s) for s in chosen]
    return Mutating(batch, pool, futures, kept, head, branch, held)


def finish(session: Session, m: Mutating) -> None:
    """Wait for the mutators, then close the window: whatever changed outside their worktrees is saved and
    undone, HEAD put back on its branch. A mutator that switched branches is a safety stop (exit 20)."""
    ws, siblings = session.ws, m.batch.siblings
    try:
        wait_all(m.futures)
    finally:
        m.pool.shutdown()
        try:
            switched, moved_to = switched_from(ws, m.branch, m.head)  # before the guard puts .git back
            outside = undo_outside(session, m.batch.run_dir, m.kept)
            reattach(ws, m.branch, m.head)
        finally:
            m.held.close()
    if switched:  # the KEEPs would have gone off the user's branch: exit 20, as with one candidate
        save_patches(siblings, None)
        raise SafetyStop(f"stopped: a mutator switched branches ({switched}); HEAD is back and nothing was committed")
    if moved_to != m.head:  # a commit on the branch meanwhile, the mutators' or the user's: exit 50, as with one
        raise head_moved_error(m.head, moved_to)
    if outside:
        for s in siblings:
            s.error = ("out-of-scope", f"a mutator changed files outside the artifact: {', '.join(outside[:5])}")


def carry(session: Session, batch: Batch, old_head: str | None) -> None:
    """Carry the edits of a batch mutated ahead onto HEAD as the cycle decided meanwhile left it: onto its KEEP
    (`rebase` from `old_head`, the HEAD they were mutated from), or, with no KEEP (`old_head` None), as they
    are. What carried is kept on the batch, for its line and the carry rate (autoresearch.policies.overlap)."""
    edits = [s for s in batch.siblings if s.error is None]
    if old_head is not None:
        rebase(session, batch, old_head)
    lost = [s for s in edits if s.error is not None]
    batch.carry = Carry(len(edits), len(edits) - len(lost), sum((s.mutated for s in lost), MutationSpend()))


def rebase(session: Session, batch: Batch, old_head: str) -> None:
    """Carry the edits of a batch mutated from `old_head` onto HEAD, the KEEP decided meanwhile (a three-way
    merge, in the object store, into a fresh worktree). An edit that conflicts with the KEEP, or that the KEEP
    already holds, is saved as rebase-conflict.patch and marked CONFLICT; when no candidate is left, those
    are mutated again from HEAD (`redo`)."""
    ws = session.ws
    new_tree = ws.git("rev-parse", "HEAD^{tree}")
    for s in batch.siblings:
        if s.error is not None:
            continue
        patch = candidate_patch(s.ws)
        try:
            merged = rebase_patch(ws.root, old_head, ws.head(), patch, ws.artifact)
        except UnsafePatch as exc:
            s.error = ("out-of-scope", str(exc))
            continue
        if merged is None or merged == new_tree:
            (s.run_dir / "rebase-conflict.patch").write_text(patch + "\n", encoding="utf-8")
            why = "conflicts with" if merged is None else "is already in"
            s.error = (CONFLICT, f"its edit, made while cycle {batch.number - 1} was decided, {why} that cycle's KEEP")
            continue
        s.ws = worktrees.add_tree(ws, session.paths.meta, batch.name, s.index, merged)
    get().info("carried onto the new HEAD", candidates=[s.index for s in batch.siblings if s.error is None])


def redo(session: Session, batch: Batch) -> None:
    """Mutate again, from HEAD, the candidates whose edit did not carry onto it, when none did: a cycle of
    conflicts is a cycle lost, not an error (their first attempt's spend stays on their line)."""
    if any(s.error is None for s in batch.siblings) or not any(
        s.error and s.error[0] == CONFLICT for s in batch.siblings
    ):
        return
    session.set_phase("mutate")
    get().info("mutating again: no edit made ahead carried onto the new HEAD")
    finish(session, start(session, batch, redo=True))


def _drop_leftover_changelogs(session: Session, chosen: list[Sibling]) -> None:
    """The changelogs an attempt a crash cut short left in the run just decided, removed before the
    mutation window opens: removed during it, the experiment's mirror would put them back."""
    decided = session.history.last_evaluated
    assert decided is not None, "a cycle runs after the original's evaluation"
    for s in chosen:
        (session.paths.run_dir(decided.run_dir) / f"mutation-{s.index}.md").unlink(missing_ok=True)


def _mutate_one(session: Session, number: int, s: Sibling) -> None:
    """One mutator in its worktree; its spend adds to an earlier attempt's. Its log lines name its cycle, the
    next one for a mutator running ahead while this one's candidates are evaluated."""
    bind(cycle=number, phase="mutate")
    ws = s.ws
    request = mutation_request(
        session,
        number,
        ws,
        s.run_dir,
        sibling=s.index,
        siblings=session.config.search.candidates,
        strategy=s.strategy.name,
        strategy_instructions=s.strategy.instructions,
    )
    head = ws.head()
    try:
        result = run_mutator(session, s.mutator.mutate, request)
        if request.changelog.is_file():
            request.changelog.replace(s.run_dir / "mutation.md")
        check_worktree(ws, head, result)
        parents.check_changed(s, result)
    except MutationFailed as exc:
        s.error = (exc.reason, str(exc))
        if exc.spent is not None:
            _add_spend(s, exc.spent)
        return
    except MutationsExhausted:
        s.error = ("exhausted", "the mutator has no more mutations")
        return
    _add_spend(s, result)
    s.draft.mutation = result.summary
    get().info("mutated", candidate=s.index, strategy=s.strategy.name, summary=result.summary)


def _add_spend(s: Sibling, spent: MutationResult) -> None:
    s.draft.mutation_spend = s.mutated + MutationSpend.of(spent)
