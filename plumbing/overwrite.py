"""A file of the daemon's own written over in place, rather than made anew, when it is still its own.

Creating a file (a temporary one renamed over the old, or a probe made and unlinked) costs 100-500 us of
CPU on an ext4 disk: an inode and a directory entry, journaled by the kernel. Writing over an existing
file's bytes costs some 10 us, setting its times 2 us. Only for files that no reader reads while the
daemon writes them, and that are made whole again before any reader trusts them after a kill.

A mutator that is not sandboxed can put anything at the file's path. What is written over is only a
regular file with no other name: never what a symbolic link names (not followed), nor a user's file that
a hard link made a second name of, nor a FIFO (opening one never blocks: it is not a regular file). For
anything else `owned` says None and the caller makes the file anew, as before.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path


def owned(path: Path | str) -> int | None:
    """A descriptor open for writing on `path` when it is a regular file of one name, not a link; else None
    (missing, or anything else in its place). The caller closes it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
        return fd
    os.close(fd)
    return None


def write(path: Path, data: bytes, between: Callable[[], None] = lambda: None) -> bool:
    """`data` written over the start of `path`, then the file cut to its length; False, having written
    nothing, when `path` is not `owned`. A kill before the cut leaves `data` followed by the old text's
    tail (`between` runs there: the kill tests' point)."""
    fd = owned(path)
    if fd is None:
        return False
    try:
        done = 0
        while done < len(data):  # a short write (a full disk) raises on the next try
            done += os.pwrite(fd, memoryview(data)[done:], done)
        between()
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)
    return True
