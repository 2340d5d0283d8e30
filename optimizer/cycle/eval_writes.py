"""What an eval wrote inside a directory artifact while it ran, undone.

An eval may write inside the artifact it measures (an AgentV 5 host `workdir` inside the skill it tests: its
`setup` and the target write there). That is neither the mutator's edit nor measured as one, and it may hold a
secret from the environment: committed by a KEEP (which stages the whole artifact), or carried into the next
mutation's diff, it would break "nothing outside the mutator's edit reaches a commit". So after every eval run
the artifact is put back as it was evaluated (its key, the git tree written before the run), and what the eval
wrote is saved in full under the run's directory, never in git.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygit2
from pygit2.enums import DeltaStatus

from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.gitrepo.workspace import Workspace

ADVICE = (
    "the eval writes inside the artifact while it runs (its files are undone after each run, kept under the"
    " run's eval-writes/ folder, never committed): move its working directory out of the artifact"
)


def undo_eval_writes(ws: Workspace, key: str, run_dir: Path) -> list[str]:
    """The artifact-relative paths the eval changed inside the directory artifact, each saved under
    `run_dir/eval-writes/` as the eval left it and put back as the tree `key` has it ([] when none: a file
    artifact, whose key is no object of the repository, is left to the scope checks)."""
    if ws.mode != "directory" or not ws.artifact_path.is_dir():
        return []
    now = artifact_key(ws)
    if now == key:
        return []
    before, after = ws.lib[key].peel(pygit2.Tree), ws.lib[now].peel(pygit2.Tree)
    saved, changed = run_dir / "eval-writes", []
    for delta in before.diff_to_tree(after).deltas:
        relative = delta.new_file.path if delta.status != DeltaStatus.DELETED else delta.old_file.path
        target = ws.artifact_path / relative
        if os.path.lexists(target):
            _save(target, saved / relative)
            _remove(target)
        if delta.status != DeltaStatus.ADDED:
            _write(ws.lib[delta.old_file.id].read_raw(), int(delta.old_file.mode), target)
        else:
            _prune(ws.artifact_path, target.parent)
        changed.append(relative)
    return changed


def _save(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    else:
        shutil.copy2(source, target, follow_symlinks=False)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _write(data: bytes, mode: int, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode == pygit2.enums.FileMode.LINK:
        os.symlink(os.fsdecode(data), target)
        return
    target.write_bytes(data)
    target.chmod(0o755 if mode == pygit2.enums.FileMode.BLOB_EXECUTABLE else 0o644)


def _prune(root: Path, folder: Path) -> None:
    """The folders an added file's removal left empty, up to the artifact's own (git keeps no empty folder)."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
