"""The merge candidate of a cycle of several: when two or more candidates the rule keeps each win tests the
others do not, their patches three-way merged onto HEAD and evaluated as one more candidate."""

from __future__ import annotations

from autoresearch.optimizer.cycle import stops
from autoresearch.optimizer.cycle.batch import MERGE, Batch, Sibling
from autoresearch.optimizer.cycle.decide import compare_for_goal
from autoresearch.optimizer.cycle.gating import Rows, scored_pair
from autoresearch.optimizer.cycle.line import Draft
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.merge import UnsafePatch, merge_patches
from autoresearch.optimizer.gitrepo.workspace import candidate_patch
from autoresearch.policies.merging import merge_parents


def merged(session: Session, batch: Batch, budget_left: bool) -> Sibling | None:
    """The merge candidate: when two or more siblings the rule keeps each win tests the others do not, their patches
    three-way merged onto HEAD (in the object store) and checked out in a worktree of its own; None when
    no merge is worth trying, the patches conflict, or the budget (`budget_left`: whether one more eval may
    start) or a STOP file says no more evals."""
    siblings = batch.siblings
    baseline = session.holdout.partition(session.baseline_rows)[0] if session.holdout else session.baseline_rows
    # only candidates the rule keeps: with a noisy eval every candidate wins a few tests by chance, and a merge
    # of those was tried nearly every cycle, one more eval on the cycle's critical path that was seldom kept
    wins = [_won(session, s, baseline) if s.keep else set() for s in siblings]
    parents = merge_parents(wins)
    if not parents:
        return None
    if stops.stop_waiting(session) or not budget_left:
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


def _won(session: Session, s: Sibling, baseline: Rows) -> set[str]:
    """The tests a sibling won against HEAD, as its rule compared them (none for one not evaluated)."""
    if s.rows is None or s.error is not None:
        return set()
    assert s.draft.assessment is not None
    head, rows = scored_pair(session.config, s.draft.assessment.sizes, baseline, s.rows)
    return {m.test_id for m in compare_for_goal(session.config, head, rows).matched if m.outcome == "win"}
