"""Saving what the scope guard is about to undo, so that no byte written during a mutation is lost.

Whoever wrote them (the mutator, or the user editing during the mutation), the
changes are saved under the cycle's run directory before they are undone:

    <run_dir>/outside/
      RESTORE.txt     what was undone, path by path, and the commands that bring it back
      tracked.patch   the changes to files committed at HEAD, for `git apply`
      files/...       a full copy of every changed file and symlink (tracked, untracked,
                      ignored), at its path relative to the repository root; of a result-cache
                      log the mutation only appended to, the bytes appended (`<log>.appended`)
      git/...         the same for paths with a `.git` component (hooks, config, refs, a
                      nested repository's files): kept apart, never restored by the command

`cp -a <run_dir>/outside/files/. <repository root>/` puts every saved work tree
file back as it was at the end of the mutation; paths that were deleted during it
are listed in RESTORE.txt (deleting them again is up to the reader). What was
written under `.git/` is kept apart because it can run code (a hook, an alias, a
`core.fsmonitor`): a user who runs the printed command to get their own edits
back must not install the mutator's hook with them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pygit2
from pygit2.enums import DiffOption

from autoresearch.mutators.gitnames import is_git_name
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.guard.cachefolders import CHUNK, GROWN
from autoresearch.optimizer.guard.manifest import opened
from autoresearch.optimizer.guard.reach import Change
from autoresearch.optimizer.guard.scope import Guard
from autoresearch.plumbing import atomic
from autoresearch.plumbing.errors import IntegrityError

if TYPE_CHECKING:
    from pygit2 import Tree

KIND = {(False, True): "created", (True, False): "deleted", (True, True): "changed"}
APPENDED = ".appended"  # beside a result-cache log's path under files/: the bytes a mutation appended to it


def undo_all(guard: Guard, run_dir: Path) -> tuple[list[Change], Path | None]:
    """Every change since the guard settled (or was armed), saved under `run_dir`, then undone; the
    changes, and where they were saved (None when there were none). Stops the run (exit 50) when a
    path could not be put back (see `verify`)."""
    changes = guard.changes()
    if not changes:
        return [], None
    saved = save(guard, changes, run_dir)
    failed = guard.undo(changes)
    verify(guard, changes, failed, saved)
    return changes, saved


def save(guard: Guard, changes: list[Change], run_dir: Path) -> Path:
    """Keep every changed path's current state (the undo is about to replace or remove it) and write
    RESTORE.txt; returns the directory."""
    base = _base(guard)
    target = run_dir / "outside"
    files = target / "files"
    target.mkdir(parents=True, exist_ok=True)
    patch = _tracked_patch(guard, changes)  # read before anything moves
    if patch:
        (target / "tracked.patch").write_text(patch, encoding="utf-8")
    lines: list[str] = []
    git_lines: list[str] = []
    for change in changes:
        relative = os.path.relpath(change.path, base)
        in_git = any(is_git_name(part) for part in relative.split(os.sep))
        (git_lines if in_git else lines).append(
            f"{KIND[(change.before is not None, change.after is not None)]:8} {_shown(relative)}"
        )
        if change.after is not None and change.after.kind in ("file", "link") and not relative.startswith(".."):
            _keep(change.path, (target / "git" if in_git else files) / relative)
        elif change.after is not None and change.after.kind == GROWN and not relative.startswith(".."):
            assert change.before is not None  # a log grown from its settled length, held as `before`
            _appended(change.path, files / f"{relative}{APPENDED}", int(change.before.oid))
    text = _restore_text(base, target, lines, git_lines, bool(patch))
    (target / "RESTORE.txt").write_text(text, encoding="utf-8")
    return target


def _appended(path: str, copy: Path, start: int) -> None:
    """The bytes a mutation appended to a result-cache log (past `start`, its settled length), copied at
    `copy`: the undo cuts them off the log. Not the whole log: the entries before stay in it, and a copy of
    a night's log each cycle a mutator appended (one that runs `autoresearch eval` itself) filled the disk.
    Written whole or not at all (a kill mid-copy, then a start that finds a copy, keeps that one)."""
    if os.path.lexists(copy):  # an earlier start's save of this mutation: that one stays
        return
    try:
        with opened(path) as f:  # a link or a FIFO put in its place since: not read, said below
            f.seek(start)
            atomic.write_chunks(copy, iter(lambda: f.read(CHUNK), b""), durable=False)
    except OSError as exc:
        get().error("scope guard: cannot save a cache log before cutting it back", path=path, error=str(exc))


def _keep(path: str, copy: Path) -> None:
    """The path's state at `copy`, the path itself left in place: the undo then writes a new file there,
    and a file it cannot put back keeps the mutation's version in its place rather than vanishing. A hard
    link costs no copy: the undo replaces the path's directory entry, never the linked bytes."""
    if os.path.lexists(copy):  # an earlier start's save of this mutation (its undo refused): that one stays
        return
    copy.parent.mkdir(parents=True, exist_ok=True)
    if os.path.islink(path):
        os.symlink(os.readlink(path), copy)
        return
    try:
        os.link(path, copy)
    except OSError:  # another filesystem
        shutil.copy2(path, copy)


def restore_hint(guard: Guard, saved: Path) -> str:
    if not (saved / "files").is_dir():  # only git's own files changed: nothing the command would bring back
        return f"see {saved / 'RESTORE.txt'}"
    return f"{_restore_command(_base(guard), saved)}  (details in {saved / 'RESTORE.txt'})"


def saved_copy(guard: Guard, saved: Path, path: Path) -> Path | None:
    """Where `save` kept `path`'s full copy under `saved` (a file of the work tree, not git's own); None when
    it kept none (the path was deleted, or lies outside the repository)."""
    copy = saved / "files" / os.path.relpath(path, _base(guard))
    return copy if os.path.lexists(copy) else None


def _restore_command(base: Path, saved: Path) -> str:
    return f"cd {shlex.quote(str(base))} && cp -a {shlex.quote(str(saved / 'files'))}/. ./"


def _base(guard: Guard) -> Path:
    """The main checkout's root: in worktree mode, the guarded git dir and the cache live there."""
    common = guard.ws.git("rev-parse", "--git-common-dir")
    common_path = Path(os.path.realpath(os.path.join(guard.ws.root, common)))
    return common_path.parent if common_path.name == ".git" else guard.ws.root


def printable(path: str) -> str:
    """A path as text any log or JSON file can hold: a byte that is not UTF-8 in a file's name (a
    surrogate, to Python) is written as `\\xff` instead of crashing the writer."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _shown(relative: str) -> str:
    """A path as one line of RESTORE.txt: quoted and escaped when a newline, another control character
    or a byte that is not UTF-8 (a surrogate, to Python) is in it."""
    return relative if relative.isprintable() else json.dumps(relative)


def _restore_text(base: Path, target: Path, lines: list[str], git_lines: list[str], has_patch: bool) -> str:
    how = [
        "The scope guard undid these changes made outside the artifact during the mutation",
        "(by the mutator, or by you while it ran). files/ holds each created or changed file",
        "as it was at the end of the mutation; deleted paths were put back (delete them again",
        "by hand if that deletion was yours).",
        "",
        *lines,
    ]
    if (target / "files").is_dir():
        how += ["", "To bring them all back:", f"  {_restore_command(base, target)}"]
    if has_patch:
        patch = shlex.quote(str(target / "tracked.patch"))
        how.append(f"or, for the files committed at HEAD only: cd {shlex.quote(str(base))} && git apply {patch}")
    if git_lines:
        how += [
            "",
            "Changed inside git's own files (saved in git/, at their paths, and NOT restored by the",
            "command above: a hook, git config or a nested repository can run code on your next git",
            "command; read them before you copy any back by hand):",
            "",
            *git_lines,
        ]
    return "\n".join(how) + "\n"


def _tracked_patch(guard: Guard, changes: list[Change]) -> str:
    ws = guard.ws
    tree = ws.lib.revparse_single("HEAD").peel(pygit2.Tree)
    parts: list[str] = []
    for change in changes:
        relative = os.path.relpath(change.path, ws.root)
        if relative != printable(relative):  # a name that is not UTF-8, which libgit2 cannot take: files/ has it
            continue
        if relative.startswith("..") or not _in_tree(tree, relative) or not _plain(change):
            continue
        old = guard.backups.read(change.before.oid) if change.before is not None else None
        new = Path(change.path).read_bytes() if change.after is not None else None
        patch = pygit2.Patch.create_from(old, new, relative, relative, flag=DiffOption.SHOW_BINARY)
        # read while `old` and `new` live: the patch's lines point into them (pygit2 types it optional; empty is "")
        parts.append(patch.text or "")
    return "".join(parts)


def _plain(change: Change) -> bool:
    return all(e is None or e.kind == "file" for e in (change.before, change.after))


def _in_tree(tree: Tree, relative: str) -> bool:
    try:
        tree[relative]
    except KeyError:
        return False
    return True


def verify(guard: Guard, changes: list[Change], failed: list[str], saved: Path) -> None:
    """After an undo nothing may differ any more; if something still does, stop rather than go on. A path
    the undo could not put back counts even when no new event says so (the watcher reports writes, and a
    failed restore writes nothing). The bytes it held before the mutation live only in the daemon's
    memory: they are written down under `saved/before/` first."""
    left = {c.path: c for c in changes if c.path in failed}
    left |= {c.path: c for c in guard.changes()}
    if not left:
        return
    before = saved / "before"
    kept = [change.path for change in left.values() if _write_before(guard, change, before)]
    first = sorted(left)[0]
    where = f", what was there before in {before}" if kept else ""
    raise IntegrityError(
        f"the scope guard could not restore {len(left)} path(s) outside the artifact, e.g. {first}; "
        f"what the mutation left is saved in {saved}{where}"
    )


def _write_before(guard: Guard, change: Change, before: Path) -> bool:
    """Whether the bytes `change.path` held before the mutation are now under `before`."""
    entry = change.before
    if entry is None or entry.kind not in ("file", "link"):
        return False
    data = guard.backups.read(entry.oid)
    if data is None:
        return False
    copy = before / os.path.relpath(change.path, guard.ws.root).replace(".." + os.sep, "")
    copy.parent.mkdir(parents=True, exist_ok=True)
    if entry.kind == "link":
        os.symlink(os.fsdecode(data), copy)
    else:
        copy.write_bytes(data)
        os.chmod(copy, entry.mode)
    return True
