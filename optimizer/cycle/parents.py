"""`search.parents: pareto`: a cycle's candidates start from HEAD and from earlier candidates on the front of
per-test winners (autoresearch.policies.pareto), kept on refs of the experiment's own
(autoresearch.optimizer.gitrepo.candidate_refs).

- `start`: as a batch is made, each candidate the front gives a parent gets a worktree holding that
  parent's edit carried onto HEAD (a three-way merge; one that no longer carries, or that HEAD already
  holds, gives its place to the next member of the front, and a candidate the front has no parent
  for starts at HEAD; a member found not to carry is not merged again until HEAD moves: while cycles drop it
  would not carry again, and late in a night those merges cost each cycle more than a second). The mutator
  then edits on top of it; the candidate is judged
  against HEAD like any other, so a KEEP is still a measured improvement on HEAD, committed as one
  commit on the branch.
- `keep`: once a cycle is decided, the front is computed with its evaluated candidates that were not
  committed; those on it are stored on refs, and the refs of candidates no longer on it are removed.

The front is rebuilt each time from the refs, the lines and the run directories (each candidate's first
run, `candidate-<index>/index.jsonl`; held-out tests are not there), against HEAD's results: nothing is
held in memory, so a restarted daemon picks parents as the one before it would have. A candidate
measured by another eval (its line's `eval_key`) is not compared, and its ref goes.
"""

from __future__ import annotations

from pathlib import Path

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
from autoresearch.optimizer.gitrepo.merge import UnsafePatch
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
    ranked, trees = _carrying(session, len(batch.siblings) - 1)
    for s, name in zip(batch.siblings, pareto.assign(ranked, len(batch.siblings)), strict=True):
        if name == pareto.HEAD:
            continue
        s.ws = worktrees.add_tree(session.ws, session.paths.meta, batch.name, s.index, trees[name])
        s.parent, s.start_key = name, artifact_key(s.ws)
    get().info("parents", cycle=batch.number, parents=[s.parent or "HEAD" for s in batch.siblings])


def _carrying(session: Session, wanted: int) -> tuple[list[pareto.Member], dict[str, str]]:
    """The front, ranked, less the members whose edit does not carry onto HEAD (HEAD already holds it, or it
    conflicts with a KEEP since), as far down as `wanted` parents; and those parents' trees carried onto
    HEAD. A member that does not carry gives its place to the next one rather than leave its candidate at
    HEAD, where the first candidate already is."""
    ranked, stored = _front(session)
    by_name = {s.name: s for s in stored}
    head = session.ws.head()
    misses = session.not_carrying = {name: at for name, at in session.not_carrying.items() if at == head}
    kept = [m for m in ranked if m.name == pareto.HEAD]
    trees: dict[str, str] = {}
    for member in (m for m in ranked if m.name != pareto.HEAD and m.name not in misses):
        if len(trees) == wanted:
            break
        try:
            tree = candidate_refs.carried(session.ws, by_name[member.name])
        except UnsafePatch as exc:  # a ref not of our making (code the eval runs unsandboxed may write one)
            get().warning("a parent on the front would change files outside the artifact: refused", error=str(exc))
            misses[member.name] = head
            continue
        if tree is None:
            get().info(
                "a parent on the front does not carry onto HEAD: the next one takes its place", parent=member.name
            )
            misses[member.name] = head
            continue
        kept.append(member)
        trees[member.name] = tree
    return kept, trees


def at_head(s: Sibling) -> None:
    """The candidate starts again from HEAD (mutated again after its edit did not carry onto a new HEAD)."""
    s.parent = s.start_key = ""


def check_changed(s: Sibling, result: MutationResult) -> None:
    """A candidate that started from a parent changed it: its artifact differs from HEAD's already."""
    if s.start_key and artifact_key(s.ws) == s.start_key:
        raise MutationFailed(f"the mutator left the artifact of its parent {s.parent} unchanged", "no-change", result)


def keep(session: Session, batch: Batch, winner: Sibling | None) -> None:
    """Store the cycle's evaluated candidates that were not committed and are on the front, and drop the refs
    of those no longer on it: the front is computed first, with the cycle's candidates beside the stored
    ones, so that a candidate off the front costs no ref written and removed again (a few git processes
    each, between one cycle's decision and the next one's evals). A git error here is logged: the cycle is
    decided, and a parent fewer is no reason to end the night."""
    if session.config.search.parents != "pareto":
        return
    experiment = session.config.experiment_name
    try:
        fresh: dict[str, tuple[Sibling, str]] = {}  # name: (candidate, its patch against the HEAD it was made from)
        for s in batch.siblings:
            if s is winner or s.rows is None or s.error is not None:
                continue
            patch = candidate_patch(s.ws)
            if patch.strip():
                fresh[f"{batch.number}-{s.index}"] = (s, patch)
        scores = {name: _first_run(batch.run_dir / f"candidate-{s.index}") for name, (s, _) in fresh.items()}
        ranked, stored = _front(session, {name: found for name, found in scores.items() if found})
        on_front = {m.name for m in ranked}
        for name, (s, patch) in fresh.items():
            if name in on_front:
                candidate_refs.store(session.ws, experiment, name, s.ws.head(), patch, batch.run_dir.name)
        candidate_refs.drop(session.ws, experiment, [s.name for s in stored if s.name not in on_front])
    except IntegrityError as exc:
        get().warning("could not keep the cycle's candidates as parents", error=str(exc)[:300])


def _front(session: Session, fresh: dict[str, Scores] | None = None) -> tuple[list[pareto.Member], list[Stored]]:
    """The front, ranked, over HEAD's results, the stored candidates measured by this eval and `fresh` ones
    (this cycle's, not stored yet); and every stored candidate (those not compared are off the front)."""
    stored = candidate_refs.listed(session.ws, session.config.experiment_name)
    head = session.holdout.partition(session.baseline_rows)[0] if session.holdout else session.baseline_rows
    pool: dict[str, Scores] = {pareto.HEAD: _per_test(head)}  # the tests the candidates' run directories hold
    for s in stored:
        scores = _scores(session, s)
        if scores:
            pool[s.name] = scores
    return pareto.front(pool | (fresh or {}), session.config.eval.goal != "minimize"), stored


def _scores(session: Session, s: Stored) -> Scores | None:
    """The stored candidate's first run, if its cycle's line is the one it was stored with, by this eval."""
    line = next((r for r in session.history.rows if r.cycle == s.cycle and r.run_dir == s.run_dir), None)
    if line is None or line.eval_key != session.eval_key:
        return None
    return _first_run(session.paths.run_dir(s.run_dir) / f"candidate-{s.index}")


def _first_run(candidate_dir: Path) -> Scores | None:
    try:
        return _per_test(load_rows(candidate_dir))
    except (BadResults, OSError):
        return None


def _per_test(rows: Rows) -> Scores:
    """Each test's score, the last row of a test winning (as compare reads them)."""
    return {str(row["test_id"]): float(row["score"]) for row in rows}
