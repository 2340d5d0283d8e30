"""The artifact in the working tree during a cycle: a candidate that goes back to HEAD unless it is
committed, and HEAD's artifact put in for a HEAD run of the significant rule.

Every way out of a cycle passes through `in_tree`: a KEEP commits the
candidate, a DROP or an error discards it (its diff saved first, so no tried
idea is lost), and whatever else ends the cycle (an error, a signal) finds the
artifact put back at HEAD on the way out.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2

from autoresearch.optimizer import signals
from autoresearch.optimizer.cycle.eval_writes import Evaluated, undo_eval_writes
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo.workspace import (
    Workspace,
    artifact_id,
    candidate_patch,
    commit_artifact,
    restore_artifact,
)
from autoresearch.plumbing import faults, inplace, trees
from autoresearch.plumbing.errors import IntegrityError

LATE = "late-writes"  # under a run's directory: what was written into the artifact after its evaluation


class Candidate:
    """One cycle's candidate, from its mutation to its decision: committed, discarded, or (by `in_tree`)
    restored."""

    def __init__(self, ws: Workspace, run_dir: Path, touched: bool = True):
        self.ws, self.run_dir = ws, run_dir
        self.touched = touched  # False: the checkout of a cycle whose candidates were all in worktrees
        self.settled = False

    def commit(self, message: str, evaluated: Evaluated | None = None) -> str:
        """The candidate committed, as it was `evaluated`: a write after its evaluation (a process the eval left
        running, the user's editor) is saved under `late-writes/` and undone first, as an eval's own writes are,
        so that only measured bytes reach the branch and nothing written is lost (one written in the instant
        between that undo and the commit's own read of the file is refused by the commit, and saved and undone too,
        so that the diff saved is the evaluated candidate's, not the late write's). A commit git refuses (a lock
        another git holds: `HEAD.lock` during a `git gc`, a branch's, the index's) ends the run with the
        candidate's diff saved first, as a DROP saves it: the way out of the cycle then puts the artifact back at
        HEAD, and the next run makes the cycle again."""
        self._undo_late(evaluated)
        faults.point("late-writes-checked")
        expected = (evaluated.key, evaluated.mode) if evaluated is not None and self.ws.mode == "file" else None
        try:
            sha = commit_artifact(self.ws, message, expected)
        except IntegrityError as exc:
            self._undo_late(evaluated)  # a write the commit refused: saved, so that the diff is the evaluated one
            saved = self._save()
            raise IntegrityError(f"{exc}; the candidate's diff is saved in {saved}" if saved else str(exc)) from None
        if sha is None:
            raise IntegrityError("the candidate vanished before its commit")
        self.settled = True
        return sha

    def _undo_late(self, evaluated: Evaluated | None) -> None:
        """A write since the evaluation saved under `late-writes/` and undone (nothing when it is not known)."""
        if evaluated is not None:
            _late(
                undo_eval_writes(self.ws, evaluated, self.run_dir, LATE),
                self.run_dir,
                "the artifact changed after it was evaluated",
            )

    def discard(self) -> None:
        """Save the candidate's diff in its run directory, then put the artifact back to HEAD (nothing to do for
        a checkout no candidate touched)."""
        if not self.touched:
            self.settled = True
            return
        with signals.critical():
            self._save()
            faults.point("after-patch")
            restore_artifact(self.ws)
        self.settled = True

    def _save(self) -> Path | None:
        """The candidate's diff against HEAD written to its run directory; where, or None when there is none."""
        patch = candidate_patch(self.ws)
        if not patch.strip():
            return None
        saved = self.run_dir / "candidate.patch"
        saved.write_text(patch + "\n", encoding="utf-8")
        return saved

    def close(self) -> None:
        """On the way out of its cycle: the artifact back at HEAD unless it was committed or settled."""
        if not self.settled:
            restore_artifact(self.ws)


@contextmanager
def in_tree(ws: Workspace, run_dir: Path) -> Iterator[Candidate]:
    """The cycle's candidate; on the way out the artifact is back at HEAD unless it was committed."""
    candidate = Candidate(ws, run_dir)
    try:
        yield candidate
    finally:
        candidate.close()


@contextmanager
def head_in_tree(ws: Workspace, run_dir: Path) -> Iterator[None]:
    """Put HEAD's artifact in the tree for a HEAD run, then the candidate back.

    A crash in between leaves either HEAD (the cycle is redone) or the candidate
    (saved as a patch by the reconcile): both are states a resume repairs.
    """
    aside = run_dir / "candidate-aside"
    with signals.critical():
        _copy(ws.artifact_path, aside)
        restore_artifact(ws)
    try:
        yield
    finally:
        with signals.critical():
            remove(ws.artifact_path)
            _copy(aside, ws.artifact_path)
            remove(aside)


def replace_artifact(source: Path, ws: Workspace, run_dir: Path) -> None:
    """Put a candidate's artifact (from its worktree) in place of the checkout's, which is HEAD's unless something
    wrote it during the cycle (the user's editor): that is saved whole under `run_dir/late-writes/` first, never
    lost (as a write after a lone candidate's evaluation is: `Candidate.commit`)."""
    target = ws.artifact_path
    if ws.mode == "file":
        try:
            mode = stat.S_IMODE(os.lstat(target).st_mode)  # (the bytes and the kind count: it is replaced anyway)
        except FileNotFoundError:
            mode = None
        at_head = Evaluated(head := artifact_id(ws), _as_checked_out(ws, head), mode) if mode is not None else None
    else:
        at_head = Evaluated(artifact_id(ws))
    if at_head is not None:
        _late(
            undo_eval_writes(ws, at_head, run_dir, LATE),
            run_dir,
            "the artifact in your checkout changed during the cycle",
        )
    remove(target)
    _copy(source, target)


def _as_checked_out(ws: Workspace, head: str) -> bytes:
    """HEAD's artifact as the checkout may hold it: the bytes git stores, or those bytes through the checkout's
    conversions (`eol=crlf`, `core.autocrlf`: libgit2's filters, as `git checkout` writes them) where the file
    holds those. Either is HEAD's to git; the stored bytes alone made every KEEP of parallel candidates in such
    a checkout take its file for an edit made during the cycle (saved under late-writes/, with a warning)."""
    blob = ws.lib[head]
    stored = blob.read_raw()
    found = inplace.contents(ws.artifact_path, len(stored) * 2 + 1)  # a conversion at most doubles it (LF to CRLF)
    if found is None or found[0] == stored or not isinstance(blob, pygit2.Blob):
        return stored
    with pygit2.BlobIO(blob, as_path=ws.artifact) as converted:
        return found[0] if converted.read() == found[0] else stored


def _late(paths: list[str], run_dir: Path, what: str) -> None:
    """A warning naming what was written into the artifact when it should not have been, and where it is saved."""
    if paths:
        get().warning(
            f"{what}: what was evaluated is committed, the change is saved", saved=str(run_dir / LATE), paths=paths[:5]
        )


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy2(source, target)


def remove(path: Path) -> None:
    """The file or folder at `path`; a symlink itself, never what it points at (a mutator's tree may hold a
    link to the experiment's runs, named as a tool cache that is removed after the mutation)."""
    if path.is_dir() and not path.is_symlink():
        trees.remove(path)
    else:
        path.unlink(missing_ok=True)
