"""A KEEP's branch moved to its new commit as git's files backend moves it, where the branch's files are the
plain case: its loose ref naming the parent, its reflog and HEAD's there to append to.

libgit2's `Reference.set_target` does the same writes (the lock `refs/heads/<branch>.lock` made with O_EXCL, a
line appended to the branch's reflog and to HEAD's, the lock renamed over the ref), but reads the ref four
times, HEAD twice, the new commit's object and the packed refs on the way (some forty system calls, a fifth
of a KEEP's own CPU in bench/decision_writes.py). Here: the lock made, the ref read once under it (the
compare-and-swap: it must name the parent), the two lines appended, the lock renamed. Anything else (a
detached HEAD, a linked worktree, a branch only in `packed-refs`, a reflog missing, which git would make) is
left to libgit2, with nothing written: `move` says False.
"""

from __future__ import annotations

import os

from autoresearch.optimizer.gitrepo import rawread
from autoresearch.optimizer.gitrepo.gitident import Who
from autoresearch.plumbing import faults


def move(git_dir: str, branch: str, old: str, new: str, who: Who, message: str) -> bool:
    """`branch` (`refs/heads/...`, the one HEAD names in the repository at `git_dir`, not a linked worktree's)
    moved from `old` to `new` with reflog lines signed by `who` now, as git writes them; False (nothing
    written) where this is not the plain case (see the module)."""
    ref = os.path.join(git_dir, *branch.split("/"))
    logs = (os.path.join(git_dir, "logs", *branch.split("/")), os.path.join(git_dir, "logs", "HEAD"))
    if not all(os.path.isfile(log) for log in logs):
        return False
    lock = ref + ".lock"
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError:
        return False  # held (by git, or a kill's): libgit2 refuses it as before
    moved = False
    try:
        if rawread.whole(ref) != f"{old}\n".encode():
            return False
        line = f"{old} {new} {who.name} <{who.email}> {who.seconds} {_zone(who.offset_minutes)}\t{message}\n"
        for log in logs:
            _append(log, line.encode())
        faults.point("branchmove-logged")
        _write(fd, f"{new}\n".encode())
        os.close(fd)
        fd = -1
        os.rename(lock, ref)
        moved = True
    finally:
        if fd >= 0:
            os.close(fd)
        if not moved:
            os.unlink(lock)
    return True


def _append(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
    try:
        _write(fd, data)
    finally:
        os.close(fd)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _zone(minutes: int) -> str:
    """git's `+hhmm` for an offset from UTC in minutes."""
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
