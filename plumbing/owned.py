"""Scratch folders in the temporary directory that a process killed with SIGKILL does not leave behind.

`trees.temporary` removes its folder on the way out, but SIGKILL (kill -9, the OOM killer, a service's stop
that timed out) runs no `finally`: a code grader's folder, with the payload it was fed (the test's input and
the target's answer), stayed in the temporary directory for good. So these are made inside a folder of the
process's own, locked (flock) for as long as it lives. The kernel drops a dead process's lock: the next process
to make one of these folders, or a daemon's start, removes the folders whose lock is free, and never one of a
process running beside (its lock is held), as the agents' home copies are swept (autoresearch.mutators.homes).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.plumbing import trees

PREFIX = "autoresearch-owned-"
_STAGING = ".autoresearch-owned-new-"  # not PREFIX: no sweep takes a folder before its lock is held

_lock = threading.Lock()
# this process's folder by temporary directory (a Ray worker's tasks switch it), and the descriptor holding its
# lock until the process ends (not inherited by the commands it starts)
_held: dict[str, tuple[Path, int]] = {}


@contextmanager
def temporary(prefix: str) -> Iterator[str]:
    """`trees.temporary(prefix)`, made in this process's folder: removed on the way out, and by the next
    sweep if the process is killed first."""
    with trees.temporary(prefix, within=str(_folder())) as path:
        yield path


def clear_leftovers() -> list[Path]:
    """The folders of ended processes in the temporary directory (their lock is free), each removed; a folder
    of another user, or of a process alive, is left alone."""
    return sweep(PREFIX)


def claim(prefix: str, staging: str, marked: Callable[[Path], None] = lambda folder: None) -> tuple[Path, int]:
    """A new private folder (0700) named `prefix`..., and the descriptor holding its lock (the caller closes
    it once the folder is gone). It is made and locked under the `staging` name (which no sweep takes), marked
    there (`marked`: what a sweep of its kind checks for), then renamed: a sweep never sees it unlocked."""
    folder = Path(tempfile.mkdtemp(prefix=staging))
    lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    marked(folder)
    return folder.rename(folder.with_name(prefix + folder.name.removeprefix(staging))), lock


def sweep(
    prefix: str, ours: Callable[[int], bool] = lambda fd: True, before: Callable[[Path], None] = lambda folder: None
) -> list[Path]:
    """The folders named `prefix`... in the temporary directory whose owner died (their lock is free, and taken
    here), each removed after `before(folder)`; one of another user, one whose owner lives, or one that is not
    `ours` (given its descriptor), is left alone."""
    removed = []
    for folder in sorted(Path(tempfile.gettempdir()).glob(prefix + "*")):
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:  # gone meanwhile, a link, not ours to read
            continue
        try:
            if os.fstat(fd).st_uid != os.getuid() or not ours(fd) or not _free(fd):
                continue
            before(folder)
            trees.remove(folder, ignore_errors=True)
            removed.append(folder)
        finally:
            os.close(fd)
    return removed


def _folder() -> Path:
    """This process's folder in the current temporary directory; made, after a sweep, by its first use."""
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
