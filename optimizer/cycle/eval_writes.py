"""What an eval wrote inside the artifact while it ran, undone.

An eval may write inside the artifact it measures (an AgentV 5 host `workdir` inside the skill it tests: its
`setup` and the target write there). That is neither the mutator's edit nor measured as one, and it may hold a
secret from the environment: committed by a KEEP (which stages the whole artifact), or carried into the next
mutation's diff, it would break "nothing outside the mutator's edit reaches a commit". So after every eval run
the artifact is put back as it was evaluated (its key, the git tree written before the run; a file artifact's
blob, stored before the run), and what the eval wrote is saved in full under the run's directory, never in git.
A file artifact is as exposed as a directory: an eval that appends to the prompt it scores (or an edit of the
user's while the eval runs) was committed by the KEEP, unevaluated.

A daemon killed during the eval or the undo leaves the undo to the next start: a note written before the eval
(under git's folder, beside the guard's records) says which run and which tree (a file artifact's bytes and
permissions too), and every step can be taken again: each file is saved before it is removed (a save cut short is
made again from it), and put back by a rename, so that no kill leaves a file half-restored or unsaved.

The cycle's hot path pays for this with no new file: the note is one file per sample index, written over in
place (autoresearch.plumbing.inplace) and blanked after the run; a file artifact's bytes are those its key was
taken from (in memory, and in the note for a kill: no blob is stored for a candidate that may be dropped), and
after the run they are compared with the file's (size first) before anything is saved or written.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import DeltaStatus

from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import atomic, faults, folders, inplace, trees

NOTES = "eval-writes-*.json"  # one per sample index: the evals running at once in the checkout are of distinct ones
# a file artifact's bytes at most kept in its note (base64 makes them 4/3); a larger one is stored as a blob
IN_NOTE = inplace.MOST // 2
_TEMP = ".autoresearch-restoring-"  # a link being put back, renamed over its path once made
ADVICE = (  # only the tree is compared: whether the eval wrote, or the user, cannot be told
    "the artifact changed during the eval (the eval or someone else wrote it; what was written is undone after"
    " each run, kept under the run's eval-writes/ folder, never committed): if it is the eval, move its working"
    " directory out of the artifact; if it is you, leave the artifact alone while a run is on"
)


@dataclass(frozen=True)
class Evaluated:
    """The artifact as the eval is given it, what the undo puts back: its key (the tree, for a directory, which
    `artifact_key` wrote); a file artifact's bytes (None: not known, nothing put back) and permission bits."""

    key: str
    data: bytes | None = None
    mode: int = 0o644


def given(ws: Workspace, key: str, data: bytes | None = None) -> Evaluated:
    """The artifact with this key as it is about to be evaluated; `data`: a file artifact's bytes the caller read
    for its key (else read here). The bytes in the checkout are what the eval reads and what its undo puts back,
    even where their id is not the key: HEAD's key names the blob git stores, and a checkout that converts it
    (`eol=crlf`, a smudge filter) holds other bytes, which putting the stored blob back would rewrite after
    every baseline eval. Only where no regular file is there is the key's blob (HEAD's, when git holds it)
    what is put back."""
    if ws.mode != "file":
        return Evaluated(key)
    st = os.lstat(ws.artifact_path)
    if data is None and stat.S_ISREG(st.st_mode):
        data = ws.artifact_path.read_bytes()
    if data is None:
        data = ws.lib[key].read_raw() if key in ws.lib else None
    return Evaluated(key, data, stat.S_IMODE(st.st_mode))


def note(folder: Path, ws: Workspace, before: Evaluated, run_dir: Path, n: int) -> Path:
    """Before an eval (sample `n`) in the experiment's checkout (not a parallel candidate's worktree, which the
    next start removes), the note in `folder` (the vault's: out of any mutator's reach, and of the mirror that
    would put back a note the daemon removes while a mutation runs ahead) that lets the next start finish the
    undo if the daemon dies; blanked (`done`) after the run. A file artifact's bytes go in it, or into git's
    object store when they are too many for a note (and git does not hold them yet)."""
    path = folder / NOTES.replace("*", str(n))
    record: dict[str, object] = {"key": before.key, "run_dir": str(run_dir)}
    if before.data is not None:
        record["mode"] = before.mode
        if len(before.data) <= IN_NOTE:
            record["data"] = base64.b64encode(before.data).decode()
        elif before.key not in ws.lib:
            ws.lib.create_blob(before.data)
    folders.within(folder, lambda: inplace.write(path, json.dumps(record).encode()))
    return path


def done(note_path: Path) -> None:
    """The eval's undo finished: its note blanked (kept, to be written over by the next eval's)."""
    inplace.blank(note_path)


def finish(ws: Workspace, folder: Path) -> list[str]:
    """At a start after a crash: the undo of each eval the dead daemon noted in `folder`, done now (what it
    wrote saved under that run's eval-writes/ first), so that nothing the eval wrote is taken for the candidate."""
    finished = []
    for path in sorted(folder.glob(NOTES)):
        record = inplace.read(path)
        if not record:
            continue  # blank: no eval was running
        noted = json.loads(record)
        run_dir = Path(noted["run_dir"])
        data = base64.b64decode(noted["data"]) if "data" in noted else None
        if data is None and "mode" in noted and noted["key"] in ws.lib:
            data = ws.lib[noted["key"]].read_raw()
        if undo_eval_writes(ws, Evaluated(noted["key"], data, noted.get("mode", 0o644)), run_dir):
            finished.append(
                f"undid what the eval of {run_dir.name} wrote inside the artifact (saved in its eval-writes/)"
            )
        done(path)
    return finished


def undo_eval_writes(ws: Workspace, evaluated: Evaluated, run_dir: Path, folder: str = "eval-writes") -> list[str]:
    """The artifact-relative paths the eval changed inside the artifact, each saved under `run_dir/<folder>/`
    as the eval left it and put back as `evaluated` has it ([] when none). Taken again after a kill at any step,
    it finishes the same undo. (A write after the evaluation, before its KEEP's commit, is undone the same way
    into `late-writes/`: autoresearch.optimizer.cycle.tree.Candidate.commit.)"""
    if ws.mode == "file":
        return _undo_file(ws, evaluated, run_dir / folder)
    if not ws.artifact_path.is_dir():
        return []
    key = evaluated.key
    now = artifact_key(ws)
    if now == key:
        return []
    before, after = ws.lib[key].peel(pygit2.Tree), ws.lib[now].peel(pygit2.Tree)
    saved, changed = run_dir / folder, []
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


def _undo_file(ws: Workspace, before: Evaluated, saved: Path) -> list[str]:
    """A file artifact the eval changed (its bytes, its permissions, or anything else put in its place: a link,
    which the next mutator would write through, a folder, a FIFO it would block on), saved in the folder `saved`
    and written back as `before` has it."""
    path, data = ws.artifact_path, before.data
    if data is None:
        return []
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    if found is not None and _same(path, found, before):
        return []
    if found is not None and not _is_special(found.st_mode):  # (a FIFO holds no bytes to save)
        _save(path, saved / path.name)
        faults.point("eval-writes-saved")
        if stat.S_ISDIR(found.st_mode):  # the rename below replaces anything but a folder
            trees.remove(path)
            faults.point("eval-writes-removed")
    atomic.write_bytes(path, data, durable=False, mode=before.mode)
    return [path.name]


def _same(path: Path, found: os.stat_result, before: Evaluated) -> bool:
    """The file as it was evaluated: a regular file of its permissions, size and bytes (read last, and never
    blocking or following a link that took its place meanwhile)."""
    if not stat.S_ISREG(found.st_mode) or stat.S_IMODE(found.st_mode) != before.mode:
        return False
    if before.data is None or found.st_size != len(before.data):
        return False
    read = inplace.contents(path, len(before.data))
    return read is not None and read[0] == before.data


def _save(source: Path, target: Path) -> None:
    """`source` copied to `target`, over what an undo a kill cut short copied there (its source is still in place,
    whole: it is removed only once copied)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True, ignore=_special)
    else:
        shutil.copy2(source, target, follow_symlinks=False)


def _special(folder: str, names: list[str]) -> list[str]:
    """A FIFO, a socket or a device in a folder saved: nothing to copy (a copy of a FIFO would block)."""
    return [name for name in names if _is_special(os.lstat(os.path.join(folder, name)).st_mode)]


def _is_special(mode: int) -> bool:
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


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
