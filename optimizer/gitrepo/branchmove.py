"""A KEEP's branch moved to its new commit as git's files backend moves it, where the branch's files are the
plain case: its loose ref naming the parent, its reflog and HEAD's there to append to.

libgit2's `Reference.set_target` does the same writes (the lock `refs/heads/<branch>.lock` made with O_EXCL, a
line appended to the branch's reflog and to HEAD's, the lock renamed over the ref), but reads the ref four
times, HEAD twice, the new commit's object and the packed refs on the way (some forty system calls, a fifth
of a KEEP's own CPU in bench/decision_writes.py). Here: the lock made, the ref read once under it (the
compare-and-swap: it must name the parent), the two lines appended, the lock renamed. Anything else (a
detached HEAD, a linked worktree, a branch only in `packed-refs`, a reflog missing, which git would make) is
left to libgit2, with nothing written: `move` says False.

Around either (`head_locked`), `HEAD.lock` is held as git's commit holds it: its files backend locks HEAD for
HEAD's reflog line (split into an update of its own, refs/files-backend.c's split_head_update) before the
branch's lock, writes HEAD's line and the branch's, renames the branch's lock and removes HEAD's last. A `git
reflog expire` of HEAD (a `git gc`) takes the same lock to rewrite `logs/HEAD`: without it, the KEEP's line
appended after the expiry read the reflog was lost when the expiry renamed its rewrite over it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from autoresearch.optimizer.gitrepo import rawread
from autoresearch.optimizer.gitrepo.gitident import Who
from autoresearch.plumbing import faults
from autoresearch.plumbing.errors import IntegrityError


@contextmanager
def head_locked(git_dir: str, branch: str) -> Iterator[None]:
    """`HEAD.lock` of the repository at `git_dir` held while `branch`, the branch HEAD names, is moved (see the
    module), and HEAD found under it still naming `branch`, as git checks it ("HEAD has been racily updated");
    removed on the way out, whatever happened. Held by another (a git at work, or one killed): IntegrityError
    with git's words, nothing written; a kill while it is held leaves it to the next start
    (gitcmd.clear_stale_locks: made since the write's note, no git at work in the repository)."""
    lock = os.path.join(git_dir, "HEAD.lock")
    try:
        os.close(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
    except FileExistsError:
        raise IntegrityError(
            f"git commit failed: cannot lock ref 'HEAD': Unable to create '{lock}': File exists. Another git process "
            "seems to be running in this repository (a `git gc` expires HEAD's reflog under it); if none is, remove it"
        ) from None
    try:
        faults.point("head-locked")
        head = rawread.whole(os.path.join(git_dir, "HEAD")) or b""
        if not head.startswith(b"ref:") or head[4:].strip() != os.fsencode(branch):  # as git parses a symref
            raise IntegrityError(f"git commit failed: HEAD has been racily updated (it no longer names {branch})")
        yield
    finally:
        os.unlink(lock)


def move(git_dir: str, branch: str, old: str, new: str, who: Who, message: str) -> bool:
    """`branch` (`refs/heads/...`, the one HEAD names in the repository at `git_dir`, not a linked worktree's)
    moved from `old` to `new` with reflog lines signed by `who` now, as git writes them; False (nothing
    written) where this is not the plain case (see the module)."""
    ref = os.path.join(git_dir, *branch.split("/"))
    logs = (os.path.join(git_dir, "logs", "HEAD"), os.path.join(git_dir, "logs", *branch.split("/")))  # git's order
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
