"""What an eval wrote inside a directory artifact while it ran, undone.

An eval may write inside the artifact it measures (an AgentV 5 host `workdir` inside the skill it tests: its
`setup` and the target write there). That is neither the mutator's edit nor measured as one, and it may hold a
secret from the environment: committed by a KEEP (which stages the whole artifact), or carried into the next
mutation's diff, it would break "nothing outside the mutator's edit reaches a commit". So after every eval run
the artifact is put back as it was evaluated (its key, the git tree written before the run), and what the eval
wrote is saved in full under the run's directory, never in git.

A daemon killed during the eval or the undo leaves the undo to the next start: a note written before the eval
(under git's folder, beside the guard's records) says which run and which tree, and every step can be taken
again: each file is saved before it is removed (a save cut short is made again from it), and put back by a
rename, so that no kill leaves a file half-restored or unsaved.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pygit2
from pygit2.enums import DeltaStatus

from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import atomic, faults, trees

NOTES = "eval-writes-*.json"  # one per eval running in the experiment's checkout
_TEMP = ".autoresearch-restoring-"  # a link being put back, renamed over its path once made
ADVICE = (  # only the tree is compared: whether the eval wrote, or the user, cannot be told
    "the artifact changed during the eval (the eval or someone else wrote it; what was written is undone after"
    " each run, kept under the run's eval-writes/ folder, never committed): if it is the eval, move its working"
    " directory out of the artifact; if it is you, leave the artifact alone while a run is on"
)


def note(folder: Path, ws: Workspace, key: str, run_dir: Path) -> Path | None:
    """Before an eval in the experiment's checkout (not a parallel candidate's worktree, which the next start
    removes), the note in `folder` (the vault's: out of any mutator's reach, and of the mirror that would
    put back a note the daemon removes while a mutation runs ahead) that lets the next start finish the undo
    if the daemon dies (None: nothing to note)."""
    if ws.mode != "directory":
        return None
    path = folder / NOTES.replace("*", hashlib.sha256(str(run_dir).encode()).hexdigest()[:16])
    atomic.write_text(path, json.dumps({"key": key, "run_dir": str(run_dir)}))
    return path


def finish(ws: Workspace, folder: Path) -> list[str]:
    """At a start after a crash: the undo of each eval the dead daemon noted in `folder`, done now (what it
    wrote saved under that run's eval-writes/ first), so that nothing the eval wrote is taken for the candidate."""
    done = []
    for path in sorted(folder.glob(NOTES)):
        noted = json.loads(path.read_text(encoding="utf-8"))
        run_dir = Path(noted["run_dir"])
        if undo_eval_writes(ws, noted["key"], run_dir):
            done.append(f"undid what the eval of {run_dir.name} wrote inside the artifact (saved in its eval-writes/)")
        path.unlink()
    return done


def undo_eval_writes(ws: Workspace, key: str, run_dir: Path) -> list[str]:
    """The artifact-relative paths the eval changed inside the directory artifact, each saved under
    `run_dir/eval-writes/` as the eval left it and put back as the tree `key` has it ([] when none: a file
    artifact, whose key is no object of the repository, is left to the scope checks). Taken again after a
    kill at any step, it finishes the same undo."""
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
            faults.point("eval-writes-saved")
            _remove(target)
            faults.point("eval-writes-removed")
        if delta.status != DeltaStatus.ADDED:
            _write(ws.lib[delta.old_file.id].read_raw(), int(delta.old_file.mode), target)
        else:
            _prune(ws.artifact_path, target.parent)
        changed.append(relative)
    return changed


def _save(source: Path, target: Path) -> None:
    """`source` copied to `target`, over what an undo a kill cut short copied there (its source is still in place,
    whole: it is removed only once copied)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    else:
        shutil.copy2(source, target, follow_symlinks=False)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        trees.remove(path)
    else:
        path.unlink()


def _write(data: bytes, mode: int, target: Path) -> None:
    """The file (or link) written beside `target`, then renamed onto it: a kill leaves the old or the new."""
    if mode != pygit2.enums.FileMode.LINK:
        executable = mode == pygit2.enums.FileMode.BLOB_EXECUTABLE
        atomic.write_bytes(target, data, durable=False, mode=0o755 if executable else 0o644)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_TEMP)
    os.close(fd)
    try:
        os.unlink(temp)
        os.symlink(os.fsdecode(data), temp)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _prune(root: Path, folder: Path) -> None:
    """The folders an added file's removal left empty, up to the artifact's own (git keeps no empty folder)."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
