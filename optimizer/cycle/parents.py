"""`search.parents: pareto`: a cycle's candidates start from HEAD and from earlier candidates on the front of
per-test winners (autoresearch.policies.pareto), kept on refs of the experiment's own
(autoresearch.optimizer.gitrepo.candidate_refs).

- `start`: as a batch is made, each candidate the front gives a parent gets a worktree holding that
  parent's edit carried onto HEAD (a three-way merge; one that no longer carries, or that HEAD already
  holds, leaves the candidate at HEAD). The mutator then edits on top of it; the candidate is judged
  against HEAD like any other, so a KEEP is still a measured improvement on HEAD, committed as one
  commit on the branch.
- `keep`: once a cycle is decided, its evaluated candidates that were not committed are stored on refs,
  and the refs of candidates no longer on the front are removed.

The front is rebuilt each time from the refs, the lines and the run directories (each candidate's first
run, `candidate-<index>/index.jsonl`; held-out tests are not there), against HEAD's results: nothing is
held in memory, so a restarted daemon picks parents as the one before it would have. A candidate
measured by another eval (its line's `eval_key`) is not compared, and its ref goes.
"""

from __future__ import annotations

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer.cycle.batch import Batch, Sibling
from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidate_refs
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.candidate_refs import Stored
from autoresearch.optimizer.gitrepo.workspace import candidate_patch
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.policies import pareto
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import load_rows

Scores = dict[str, float]


def start(session: Session, batch: Batch) -> None:
    """Give the batch's candidates their parents (the first always HEAD): see the module's docstring."""
    if session.config.search.parents != "pareto":
        return
    ranked, stored = _front(session)
    by_name = {s.name: s for s in stored}
    for s, name in zip(batch.siblings, pareto.assign(ranked, len(batch.siblings)), strict=True):
        if name == pareto.HEAD:
            continue
        tree = candidate_refs.carried(session.ws, by_name[name])
        if tree is None:
            get().info("a parent on the front does not carry onto HEAD: the candidate starts at HEAD", parent=name)
            continue
        s.ws = worktrees.add_tree(session.ws, session.paths.meta, batch.name, s.index, tree)
        s.parent, s.start_key = name, artifact_key(s.ws)
    get().info("parents", cycle=batch.number, parents=[s.parent or "HEAD" for s in batch.siblings])


def at_head(s: Sibling) -> None:
    """The candidate starts again from HEAD (mutated again after its edit did not carry onto a new HEAD)."""
    s.parent = s.start_key = ""


def check_changed(s: Sibling, result: MutationResult) -> None:
    """A candidate that started from a parent changed it: its artifact differs from HEAD's already."""
    if s.start_key and artifact_key(s.ws) == s.start_key:
        raise MutationFailed(f"the mutator left the artifact of its parent {s.parent} unchanged", "no-change", result)


def keep(session: Session, batch: Batch, winner: Sibling | None) -> None:
    """Store the cycle's evaluated candidates that were not committed, then drop the refs off the front. A git
    error here is logged: the cycle is decided, and a parent fewer is no reason to end the night."""
    if session.config.search.parents != "pareto":
        return
    experiment = session.config.experiment_name
    try:
        for s in batch.siblings:
            if s is winner or s.rows is None or s.error is not None:
                continue
            patch = candidate_patch(s.ws)
            if patch.strip():
                candidate_refs.store(
                    session.ws, experiment, f"{batch.number}-{s.index}", s.ws.head(), patch, batch.run_dir.name
                )
        ranked, stored = _front(session)
        on_front = {m.name for m in ranked}
        candidate_refs.drop(session.ws, experiment, [s.name for s in stored if s.name not in on_front])
    except IntegrityError as exc:
        get().warning("could not keep the cycle's candidates as parents", error=str(exc)[:300])


def _front(session: Session) -> tuple[list[pareto.Member], list[Stored]]:
    """The front, ranked, over HEAD's results and the stored candidates measured by this eval; and every
    stored candidate (those not compared are off the front)."""
    stored = candidate_refs.listed(session.ws, session.config.experiment_name)
    head = session.holdout.partition(session.baseline_rows)[0] if session.holdout else session.baseline_rows
    pool: dict[str, Scores] = {pareto.HEAD: _per_test(head)}  # the tests the candidates' run directories hold
    for s in stored:
        scores = _scores(session, s)
        if scores:
            pool[s.name] = scores
    return pareto.front(pool, session.config.eval.goal != "minimize"), stored


def _scores(session: Session, s: Stored) -> Scores | None:
    """The stored candidate's first run, if its cycle's line is the one it was stored with, by this eval."""
    line = next((r for r in session.history.rows if r.cycle == s.cycle and r.run_dir == s.run_dir), None)
    if line is None or line.eval_key != session.eval_key:
        return None
    try:
        return _per_test(load_rows(session.paths.run_dir(s.run_dir) / f"candidate-{s.index}"))
    except (BadResults, OSError):
        return None


def _per_test(rows: Rows) -> Scores:
    """Each test's score, the last row of a test winning (as compare reads them)."""
    return {str(row["test_id"]): float(row["score"]) for row in rows}
