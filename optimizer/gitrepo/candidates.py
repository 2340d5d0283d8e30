"""The git worktrees of a cycle's parallel candidates: made from HEAD, detached, under the experiment's
own folder (inside the results directory, which the scope guard and `git status` ignore), one folder per
cycle (`candidates/<cycle>/<index>`, and `candidates/<cycle>/head` for a pick's test under `significant`:
the next cycle's are made while this one's are evaluated), and
removed when the cycle is decided. The user's checkout is never a candidate's workspace.

A daemon killed mid-cycle leaves them behind: `clear` (at start-up, and for a cycle's folder before it is
made) removes whatever is there, so a resumed run starts the cycle afresh from HEAD.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
from pathlib import Path

from autoresearch.optimizer.gitrepo import linked
from autoresearch.optimizer.gitrepo.status import everything_changed
from autoresearch.optimizer.gitrepo.workspace import Workspace, inside, open_workspace
from autoresearch.plumbing import faults, inplace, trees
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.folders import within

FOLDER = "candidates"


def folder(meta: Path) -> Path:
    return meta / FOLDER


def make(main: Workspace, meta: Path, batch: str, k: int) -> list[Workspace]:
    """K fresh worktrees at HEAD for the cycle `batch`, each a Workspace on the same artifact path."""
    clear(main, meta, batch)
    return [_add(main, meta, batch, i) for i in range(k)]


def add_head(main: Workspace, meta: Path, batch: str) -> Workspace:
    """A worktree at HEAD for the cycle `batch`, where a pick's test draws HEAD's runs beside its own."""
    return _add(main, meta, batch, "head")


def add_tree(main: Workspace, meta: Path, batch: str, index: int, tree: str) -> Workspace:
    """A worktree at HEAD holding `tree`'s files as a mutator would leave them (changed in the working
    tree, not staged): a merge candidate, or a candidate rebased onto a new HEAD, whose tree was built in
    the object store. One already at that place is replaced."""
    _remove(main, folder(meta) / batch / str(index))
    ws = _add(main, meta, batch, index)
    ws.git("read-tree", "-u", "--reset", tree)
    ws.git("reset", "--quiet")
    return ws


def _add(main: Workspace, meta: Path, batch: str, index: int | str) -> Workspace:
    path = folder(meta) / batch / str(index)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = main.head()
    if not linked.add(main, path, head):
        main.git("worktree", "add", "--quiet", "--detach", str(path), head)
    return open_workspace(path, main.artifact)


def carry_artifact(source: Workspace, target: Workspace, changes: dict[str, str] | None = None) -> None:
    """The artifact as a mutator left it in the throwaway checkout `source`, over `target`'s (both at HEAD):
    each of its paths that changed there is copied (a link as a link) or deleted; nothing else of
    `source` is ever read. `changes` is `everything_changed(source)` when the caller has just read it."""
    changed = everything_changed(source) if changes is None else changes
    for path in sorted(p.rstrip("/") for p in changed):  # a folder before what is in it
        if inside(source, path):
            _carry(source.root / path, target.root / path)


def _carry(source: Path, target: Path) -> None:
    """`source` put at `target`: written over the file there in place when that is a regular file of one name,
    else as a new file (or link), never written into another: a hard link of the user's (the artifact linked
    to a copy they deploy) took the candidate's bytes, and kept a dropped one's once the restore had made the
    artifact a new file; a named pipe there held the carry up."""
    kind, was = _kind(source), _kind(target)
    if kind == was == "file" and _over(source, target):
        return
    old = _git_seconds(os.lstat(target).st_mtime_ns) if was == "file" else None
    if was == "dir":
        if kind != "dir":
            trees.remove(target)
    elif was is not None:
        target.unlink()
    faults.point("carry-removed")
    if kind == "file":  # its folder made only when missing (a new folder of a directory artifact)
        within(target.parent, lambda: _anew(source, target, old))
    elif kind == "link":  # made by symlink(2), which never follows one put there meanwhile
        within(target.parent, lambda: shutil.copy2(source, target, follow_symlinks=False))


def _anew(source: Path, target: Path, old: int | None) -> None:
    """`source` copied to a new file at `target` with its permissions and times (`_stamped`), as `shutil.copy2`
    made it, but never through a link put at `target` after the old file went: copy2 opened the name to write,
    following one (a user's, or a process's), and wrote the candidate into the file it names. Whatever is there
    is removed again and the file made with O_EXCL and O_NOFOLLOW (`inplace.anew`). `old`: the old file's
    modification time as git reads it (a new file may be given the freed one's inode number). A named pipe
    at `source` is refused, never opened to block, as copy2 refused it."""
    read = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(read, "rb") as file:
        st = os.fstat(read)
        if not stat.S_ISREG(st.st_mode):
            raise shutil.SpecialFileError(f"`{source}` is not a regular file")
        fd = inplace.anew(target)
        try:
            with os.fdopen(os.dup(fd), "wb") as out:
                shutil.copyfileobj(file, out)
            _stamped(fd, st, old)
        finally:
            os.close(fd)


def _over(source: Path, target: Path) -> bool:
    """`source`'s bytes written over `target`'s in place, then its permissions and times set to `source`'s, as
    `shutil.copy2` gives a new file; False, having written nothing, when `target` is not a regular file of one
    name that this process may set the permissions of, or `source` is not a regular file. A new file was an
    inode made and one freed a cycle, which an ext4 without a journal pays for in every later creation
    (docs/benchmarks.md, the fourteenth round). Only the one name: a name linked to the file after the check
    is a name of the artifact's own file, made while it was being carried (as one made right after)."""
    fd = inplace.owned(target)
    if fd is None:
        return False
    try:
        was = os.fstat(fd)
        if was.st_uid != os.geteuid():  # copy2 makes the file this process's: its permissions ours to set
            return False
        # a FIFO: copy2 refuses it, as before; a large file of a folder artifact: copied by copy2, never held whole
        read = inplace.contents(source, inplace.MOST)
        if read is None:
            return False
        data, st = read
        inplace.overwrite(fd, data, lambda: faults.point("carry-written"))
        _stamped(fd, st, _git_seconds(was.st_mtime_ns))
    finally:
        os.close(fd)
    return True


def _stamped(fd: int, st: os.stat_result, old: int | None) -> None:
    """The file at `fd`, just written, given the candidate's permissions and times (`st`), as copy2 gave them,
    but for a modification time git reads as the old file's (`old`, `_git_seconds`), a mutator can give its
    file any: that left the file's status as git's index has it (the inode kept in place, or the freed one's
    number given to a new file), and with core.trustctime off git took the candidate for the old text, its
    status, its checkout (a DROP's) and libgit2's status (a check's carry) alike. As git reads it: the whole
    seconds alone (a git built without USE_NSEC, Debian's; core.checkStat minimal), 32 bits of them (the
    index's, libgit2's too). The write's time, now, is left then: later than the index, or racily clean."""
    if _git_seconds(st.st_mtime_ns) != old:
        os.utime(fd, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _git_seconds(ns: int) -> int:
    """A modification time as git's index keeps and compares it: whole seconds, their low 32 bits."""
    return ns // 1_000_000_000 % (1 << 32)


def _kind(path: Path) -> str | None:
    """What is at `path`, from one `lstat` (its three pathlib questions were three system calls a side)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise
    return "link" if stat.S_ISLNK(mode) else "dir" if stat.S_ISDIR(mode) else "file"


_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # what pathlib's `exists` reads as nothing there


def clear(main: Workspace, meta: Path, batch: str | None = None) -> list[str]:
    """Remove the candidate worktrees of the cycle `batch`, or all of them (and git's record of them);
    returns what was removed, as `<cycle>/<index>`."""
    root = folder(meta)
    top = root / batch if batch is not None else root
    if not top.exists():
        return []
    removed, whole = [], True
    for path in _worktrees(top) if batch is None else sorted(top.iterdir()):
        whole = _remove(main, path) and whole
        removed.append(path.relative_to(root).as_posix())
    trees.remove(top, ignore_errors=True)
    if batch is None or not whole:  # git's record of a worktree removed some other way
        main.git("worktree", "prune")
    return removed


def _worktrees(root: Path) -> list[Path]:
    """Every cycle's worktrees, and those an older version left directly under `root`."""
    found = []
    for path in sorted(root.iterdir()):
        old = (path / ".git").is_file() or not path.is_dir() or path.is_symlink()
        found += [path] if old else sorted(path.iterdir())
    return found


def _remove(main: Workspace, path: Path) -> bool:
    """Remove the worktree at `path` and git's record of it; False when that record may be left for
    `git worktree prune` (a worktree half made, or whose .git file does not lead back to it)."""
    whole = True
    if (path / ".git").is_file():
        if linked.remove(main, path):
            return True
        try:
            main.git("worktree", "remove", "--force", str(path))
        except IntegrityError:  # its .git file damaged (a mutator gone astray): removed below, git's record pruned
            trees.remove(path)
            main.git("worktree", "prune")
    elif path.exists():
        whole = False
    if path.is_dir() and not path.is_symlink():  # never registered, or half made by a killed `git worktree add`
        trees.remove(path)
    elif os.path.lexists(path):
        path.unlink()
    return whole
