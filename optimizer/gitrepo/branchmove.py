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

Each ref's lock, HEAD's and the branch's, is retried as git retries it (`attempts`: lockfile.c's
lock_file_timeout, for `core.filesRefLockTimeout` milliseconds, 100 by default), so that a `git gc` holding
one for a moment delays the KEEP rather than ending the run. `index.lock` is not: git takes it once
(repo_hold_locked_index, no timeout).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from autoresearch.optimizer.gitrepo import rawread
from autoresearch.optimizer.gitrepo.gitident import Who
from autoresearch.plumbing import critical, faults
from autoresearch.plumbing.errors import IntegrityError

DEFAULT_TIMEOUT_MS = 100  # git's core.filesRefLockTimeout when it is not set (refs.c)
_BACKOFF_CAP = 1000  # lockfile.c's BACKOFF_MAX_MULTIPLIER, times its INITIAL_BACKOFF_MS of 1 ms


def attempts(timeout_ms: int) -> Iterator[bool]:
    """The tries at a lock another may hold, as git's lock_file_timeout makes them: each says whether it is the
    last; between two, a sleep of about n² ms (the n-th, from 0.75 to 1.25 times it, at most about a second)
    until `timeout_ms` of them are spent (0: one try; negative: until the lock is free). A stop signal set
    aside meanwhile (plumbing.critical) makes the next try the last: the run stops rather than waits."""
    n, multiplier, remaining = 1, 1, timeout_ms
    while True:
        last = timeout_ms == 0 or 0 < timeout_ms and remaining <= 0 or critical.stopping()
        yield last
        if last:
            return
        wait_ms = (750 + int.from_bytes(os.urandom(2), "big") % 500) * multiplier // 1000
        time.sleep(wait_ms / 1000)
        remaining -= wait_ms
        if multiplier + 2 * n + 1 > _BACKOFF_CAP:
            multiplier = _BACKOFF_CAP
        else:
            multiplier, n = multiplier + 2 * n + 1, n + 1


def lock(path: str, name: str, timeout_ms: int) -> int:
    """The lock file `path` of the ref `name` made with O_EXCL, retried while another holds it (`attempts`);
    its descriptor. Still held: IntegrityError in git's words."""
    for last in attempts(timeout_ms):
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            if last:
                raise held(path, name) from None
    raise AssertionError("attempts ends with a last try")


def held(path: str, name: str) -> IntegrityError:
    """git's error for the lock file `path` of the ref `name` another holds."""
    return IntegrityError(
        f"git commit failed: cannot lock ref '{name}': Unable to create '{path}': File exists. Another git process "
        "seems to be running in this repository (a `git gc` expires the reflogs under their refs' locks); if none "
        "is, remove it"
    )


@contextmanager
def head_locked(git_dir: str, branch: str, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Iterator[None]:
    """`HEAD.lock` of the repository at `git_dir` held while `branch`, the branch HEAD names, is moved (see the
    module), and HEAD found under it still naming `branch`, as git checks it ("HEAD has been racily updated");
    removed on the way out, whatever happened. Held by another (a git at work, or one killed): IntegrityError
    with git's words, nothing written; a kill while it is held leaves it to the next start
    (gitcmd.clear_stale_locks: made since the write's note, no git at work in the repository)."""
    path = os.path.join(git_dir, "HEAD.lock")
    os.close(lock(path, "HEAD", timeout_ms))
    try:
        faults.point("head-locked")
        head = rawread.whole(os.path.join(git_dir, "HEAD")) or b""
        if not head.startswith(b"ref:") or head[4:].strip() != os.fsencode(branch):  # as git parses a symref
            raise IntegrityError(f"git commit failed: HEAD has been racily updated (it no longer names {branch})")
        yield
    finally:
        with suppress(FileNotFoundError):  # removed by hand meanwhile: git's rollback ignores it too
            os.unlink(path)


def move(
    git_dir: str, branch: str, old: str, new: str, who: Who, message: str, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> bool:
    """`branch` (`refs/heads/...`, the one HEAD names in the repository at `git_dir`, not a linked worktree's)
    moved from `old` to `new` with reflog lines signed by `who` now, as git writes them; False (nothing
    written) where this is not the plain case (see the module). Its lock held by another for `timeout_ms`
    (`attempts`): IntegrityError in git's words, nothing written."""
    ref = os.path.join(git_dir, *branch.split("/"))
    logs = (os.path.join(git_dir, "logs", "HEAD"), os.path.join(git_dir, "logs", *branch.split("/")))  # git's order
    if not all(os.path.isfile(log) for log in logs):
        return False
    path = ref + ".lock"
    try:
        fd = lock(path, branch, timeout_ms)
    except OSError:
        return False  # not made (its folder gone with a `git pack-refs`, say): libgit2 makes what it must
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
        os.rename(path, ref)
        moved = True
    finally:
        if fd >= 0:
            os.close(fd)
        if not moved:
            os.unlink(path)
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
