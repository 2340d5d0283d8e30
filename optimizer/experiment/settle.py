"""The next command after an interrupted `rollback` or `promote`: finish or undo what it began.

Each journal left in the results directory (autoresearch.optimizer.experiment.transaction) is
settled under its experiment's lock, after the locks of a git of ours killed mid-write are cleared
(and a git still finishing its write is waited for). A rollback whose commit was made is finished
(its line written); one cut short before its commit is undone (the artifact back at HEAD). A merge
left half-way (conflict markers, MERGE_HEAD) is aborted, and so is one whose git died before it wrote
MERGE_HEAD (its files put back as at HEAD, what they held saved first); a merge that was committed is
kept. One line each says which.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pygit2

from autoresearch.optimizer.experiment import transaction, versions
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.experiment.overview import experiments
from autoresearch.optimizer.experiment.transaction import Entry
from autoresearch.optimizer.gitrepo.gitcmd import clear_stale_locks
from autoresearch.optimizer.gitrepo.workspace import (
    Workspace,
    artifact_modified,
    candidate_patch,
    open_workspace,
)
from autoresearch.plumbing.critical import critical
from autoresearch.plumbing.errors import IntegrityError, InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths


def settle(results: Path) -> list[str]:
    """Settle every version command an interruption left under `results`; one line each. An experiment
    whose lock is held is left alone: its command is still under way."""
    done = []
    for name in experiments(results):
        paths = ExperimentPaths.at(results, name)
        if not paths.version_journal.exists():
            continue
        entry = transaction.read(paths)
        lock = Lock(paths.lock)
        try:
            lock.acquire(name, task=entry.command)
        except InvalidInput:
            continue
        try:
            with critical():  # settled whole, or left for the next command
                done.append(_settle(paths, entry))
                paths.version_journal.unlink(missing_ok=True)
        finally:
            lock.release()
    return done


def _settle(paths: ExperimentPaths, entry: Entry) -> str:
    if not Path(entry.root).is_dir():
        return f"an interrupted `{entry.command}` of '{entry.experiment}' was in {entry.root}, which is gone"
    ws = replace(open_workspace(Path(entry.root), entry.artifact), journal=paths.git_journal)
    clear_stale_locks(ws.root, paths.git_journal)
    if entry.command == "rollback":
        return f"an interrupted `rollback --to {entry.cycle}` of '{entry.experiment}' {_rollback(ws, paths, entry)}"
    return f"an interrupted `promote` of {entry.branch} {_promote(ws, paths, entry)}"


def _rollback(ws: Workspace, paths: ExperimentPaths, entry: Entry) -> str:
    head = ws.head()
    if entry.commit is None and head == entry.head:
        saved = _save_edits(ws, paths, entry)
        ws.write("restore", "--source=HEAD", "--staged", "--worktree", "--", ws.artifact)
        return f"was undone before its commit: the artifact is back at HEAD {head[:10]}{saved}; ask for it again"
    sha = entry.commit or head
    if entry.line is None or (entry.commit is None and not _made(ws, entry, head)):
        return f"left as it is: HEAD moved to {head[:10]} since, by another hand"
    record = versions.log_rollback(ws, paths, entry.line, sha)
    return f"was finished: commit {sha[:10]}, logged as cycle {record.cycle}"


def _made(ws: Workspace, entry: Entry, head: str) -> bool:
    """Whether HEAD is the rollback's own commit, made on top of where HEAD stood."""
    commit = ws.lib.revparse_single(head).peel(pygit2.Commit)
    message = commit.raw_message.decode("utf-8", "replace")
    parents = [str(p) for p in commit.parent_ids]
    return parents == [entry.head] and message.strip() == f"{versions.ROLLBACK_PREFIX}{entry.cycle}"


def _save_edits(ws: Workspace, paths: ExperimentPaths, entry: Entry) -> str:
    """The artifact as neither HEAD nor the rollback left it (edited since, by hand) is saved as a patch
    before it is restored: nothing the user wrote is destroyed."""
    if not artifact_modified(ws) or entry.target is None or not _differs(ws, entry.target):
        return ""
    return f" (its edits since are saved as {_saved(paths, 'rollback-edits', candidate_patch(ws))})"


def _saved(paths: ExperimentPaths, what: str, patch: str) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S")
    path = paths.meta / f"{what}-{stamp}.patch"
    path.write_text(patch + "\n", encoding="utf-8")
    return path


def _differs(ws: Workspace, rev: str) -> bool:
    try:
        ws.git("diff", "--quiet", rev, "--", ws.artifact)
    except IntegrityError:
        return True
    return False


def _promote(ws: Workspace, paths: ExperimentPaths, entry: Entry) -> str:
    head = ws.head()
    if head == entry.head:
        if _merging(ws):
            ws.write("merge", "--abort")
            return f"was undone: its merge was aborted, HEAD is at {head[:10]} as before"
        if left := _merge_leftovers(ws, entry):
            pathspec = [f":(literal){p}" for p in left]
            patch = _saved(paths, "promote-left", ws.git("diff", "--binary", "HEAD", "--", *pathspec))
            ws.write("restore", "--source=HEAD", "--staged", "--worktree", "--", *pathspec)
            return (
                f"was undone: its merge, cut short, had changed {', '.join(left)}; they are back as at HEAD "
                f"{head[:10]} (what they held is saved as {patch})"
            )
        return f"was undone: nothing had changed, HEAD is at {head[:10]} as before"
    if versions.is_ancestor(ws, entry.tip or "", head):
        return f"was finished: HEAD is at {head[:10]}, which has every commit of {entry.branch}"
    return f"left as it is: HEAD moved to {head[:10]} since, by another hand"


def _merge_leftovers(ws: Workspace, entry: Entry) -> list[str]:
    """The files the merge brings that differ from HEAD: what a git merge killed (or dead of its output's
    broken pipe) before it wrote MERGE_HEAD left behind. The promote began on a clean tree (it refuses
    any other), and only these files are the merge's to have touched."""
    if entry.tip is None:
        return []
    base = ws.git("merge-base", "HEAD", entry.tip)
    brought = [p for p in ws.git("diff", "--name-only", "-z", "--no-renames", base, entry.tip).split("\0") if p]
    if not brought:
        return []
    pathspec = [f":(literal){p}" for p in brought]
    return [p for p in ws.git("diff", "--name-only", "-z", "--no-renames", "HEAD", "--", *pathspec).split("\0") if p]


def _merging(ws: Workspace) -> bool:
    return Path(ws.root, ws.git("rev-parse", "--git-path", "MERGE_HEAD")).exists()
