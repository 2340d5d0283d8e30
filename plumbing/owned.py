"""Scratch folders in the temporary directory that a process killed with SIGKILL does not leave behind.

`trees.temporary` removes its folder on the way out, but SIGKILL (kill -9, the OOM killer, a service's stop
that timed out) runs no `finally`: a code grader's folder, with the payload it was fed (the test's input and
the target's answer), stayed in the temporary directory for good. So these are made inside a folder of the
process's own, locked (flock) for as long as it lives. The kernel drops a dead process's lock: the next process
to make one of these folders, or a daemon's start, removes the folders whose lock is free, and never one of a
process running beside (its lock is held), as the agents' home copies are swept (autoresearch.mutators.homes).
A process that exits normally removes its folders itself. A child forked without exec drops its parent's
folders (its copy of the lock's descriptor closed): the parent's death frees them whatever the child does,
and the child's exit removes none of them; it makes its own on first use.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.plumbing import trees

PREFIX = "autoresearch-owned-"
_STAGING = ".autoresearch-owned-new-"  # not PREFIX: a sweep takes a folder by this name only once its maker died

_PID = re.compile("[1-9][0-9]{0,6}", re.ASCII)  # a process id as a staging name writes it

_lock = threading.Lock()
# this process's folder by temporary directory (a Ray worker's tasks switch it), and the descriptor holding its
# lock until the process ends (not inherited by the commands it starts)
_held: dict[str, tuple[Path, int]] = {}


@contextmanager
def temporary(prefix: str) -> Iterator[str]:
    """`trees.temporary(prefix)`, made in this process's folder: removed on the way out, and by the next
    sweep if the process is killed first."""
    with trees.temporary(prefix, within=str(folder())) as path:
        yield path


def clear_leftovers() -> list[Path]:
    """The folders of ended processes in the temporary directory (their lock is free), each removed; a folder
    of another user, or of a process alive, is left alone."""
    return sweep(PREFIX, _STAGING)


def _any(fd: int) -> bool:
    """Every folder of the name is of its kind (and one under a staging name: its maker had not used it yet)."""
    return True


def _nothing(folder: Path) -> None:
    """Nothing to do before a folder's removal (nor in one under a staging name: its maker had not used it)."""


def claim(prefix: str, staging: str, marked: Callable[[Path], None] = _nothing) -> tuple[Path, int]:
    """A new private folder (0700) named `prefix`..., and the descriptor holding its lock (the caller closes
    it once the folder is gone). It is made and locked under the `staging` name, marked there (`marked`: what
    a sweep of its kind checks for), then renamed: a sweep never sees it unlocked by its own name. The staging
    name carries the maker's PID namespace, process id and start time: a folder left there by a maker killed
    before the rename is swept once that process is gone (while it lives, the folder may be about to be
    locked), also when its id was given to another process since. One that fails (no room for the mark, no
    descriptor left) is removed and its descriptor closed."""
    made = Path(tempfile.mkdtemp(prefix=f"{staging}{namespace() or 0}-{os.getpid()}-{started() or 0}-"))
    lock = None
    try:
        lock = os.open(made, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(lock, fcntl.LOCK_EX)
        marked(made)
        return made.rename(made.with_name(prefix + made.name.removeprefix(staging))), lock
    except BaseException:
        if lock is not None:
            os.close(lock)
        trees.remove(made, ignore_errors=True)
        raise


def sweep(
    prefix: str,
    staging: str,
    ours: Callable[[int], bool] = _any,
    before: Callable[[Path], None] = _nothing,
) -> list[Path]:
    """The folders named `prefix`... in the temporary directory whose owner died (their lock is free, and taken
    here), each removed after `before(folder)`; one of another user, one whose owner lives, or one that is not
    `ours` (given its descriptor), is left alone. So are the folders still under their `staging` name (`claim`)
    whose maker died, with nothing to bring back: the maker had not used them yet."""
    temp = Path(tempfile.gettempdir())
    removed = [f for f in sorted(temp.glob(prefix + "*")) if _removed(f, ours, before)]
    return removed + [
        f for f in sorted(temp.glob(staging + "*")) if _maker_dead(f, staging) and _removed(f, _any, _nothing)
    ]


def _removed(folder: Path, ours: Callable[[int], bool], before: Callable[[Path], None]) -> bool:
    """Whether `folder` was removed: a folder of this user (not a link), `ours`, whose lock was free."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:  # gone meanwhile, a link, not ours to read
        return False
    try:
        if os.fstat(fd).st_uid != os.getuid() or not ours(fd) or not _free(fd):
            return False
        before(folder)
        trees.remove(folder, ignore_errors=True)
        return True
    finally:
        os.close(fd)


def _maker_dead(folder: Path, staging: str) -> bool:
    """Whether the process whose PID namespace, id and start time the staging name carries has ended (an id
    the system gave again names a later start): not known (False) for a name without them, or of another
    namespace (a container sharing the temporary directory, say). A name without the start time (made before
    it was written there) is judged by the id alone."""
    *ids, _ = folder.name.removeprefix(staging).split("-")  # mkdtemp's letters hold no dash
    here = namespace()
    # any user may name a folder in the temporary directory so: a number int() or the system refuses ("²",
    # twenty digits) ended the sweep, and every scratch folder with it; a process id is 1 to 2**22 (pid_max)
    if here is None or len(ids) not in (2, 3) or ids[0] != str(here) or not _PID.fullmatch(ids[1]):
        return False
    if ids[2:] not in ([], ["0"]):
        return started(int(ids[1])) != ids[2]
    return not alive(int(ids[1]))


def namespace() -> int | None:
    """This process's PID namespace (its /proc inode), which a process id is one of; None without /proc."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return None


def started(pid: int | None = None) -> str | None:
    """When the process `pid` (this one by default) started, in clock ticks since boot (/proc/PID/stat's 22nd
    field): with its id, it names one process, where the id alone may be given again once it ends. None when
    it is gone, or without /proc."""
    try:
        with open(f"/proc/{pid or 'self'}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()  # after the name, which may hold spaces: the 3rd on
    except OSError:
        return None
    return fields[19].decode() if len(fields) > 19 else None


def alive(pid: int) -> bool:
    """Whether a process of this id exists (one of another user's too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def folder() -> Path:
    """This process's folder in the current temporary directory; made, after a sweep, by its first use. A
    folder made in it (`tempfile.mkdtemp(dir=folder())`) is removed by the sweep once the process is killed."""
    where = tempfile.gettempdir()
    with _lock:
        if where in _held and _held[where][0].is_dir():
            return _held[where][0]
        if where in _held:  # removed under us (the temporary directory cleared): made again
            os.close(_held.pop(where)[1])
        clear_leftovers()
        _held[where] = claim(PREFIX, _STAGING)
        return _held[where][0]


def _free(fd: int) -> bool:
    """Whether no live process holds the folder's lock (taking it: a sweep then owns the folder)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@atexit.register
def _release() -> None:
    """This process's folders removed at its normal exit: what a sweep would otherwise do later."""
    with _lock:
        for path, fd in _held.values():
            trees.remove(path, ignore_errors=True)
            os.close(fd)
        _held.clear()


def _forked() -> None:
    """In a child forked without exec: its parent's folders dropped (the descriptors closed, the lock stays
    the parent's alone), and a lock of its own (another thread may have held the parent's at the fork)."""
    global _lock
    _lock = threading.Lock()
    for _, fd in _held.values():
        os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_forked)
