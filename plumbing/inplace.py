"""Small record files rewritten in place: the same file, its old bytes written over.

A file the daemon rewrites every cycle (a note made before each git write, a KEEP's pending line) cost a
new file each time: creating or replacing one is 100-500 us of CPU on an ext4 disk (an inode and a
directory entry, journaled by the kernel), a write over an existing file's bytes ~3 us. A record written
this way is JSON followed by blanks (the rest of a longer record before it), which every JSON reader takes
as it is; blank alone is no record. It is not atomic against readers in other processes, nor against a
kill -9 in the middle of a write of several pages: only for files whose readers are the daemon's own next
start and whose record is checked for what it claims before it is trusted.

A mutator that is not sandboxed can put anything in the record's place. A symbolic link is never followed
(the daemon would write its record over, then blank, whatever file it names: a user's file the scope guard
has already checked): it is no record, and a write replaces it with a file of the daemon's own. A file far
larger than any record (a sparse one of a terabyte) is cut to nothing before the write rather than
blanked byte by byte in memory.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

MOST = 1 << 20  # bytes: far above any record (a pending line of a parallel cycle is some kB)


def write(path: Path, data: bytes, durable: bool = False) -> None:
    """`data` at the start of `path` (made if missing), the rest of the file blanked; fsync'd if `durable`."""
    _write(path, data, os.O_WRONLY | os.O_CREAT, durable)


def blank(path: Path) -> None:
    """`path` made blank (no record) in place; nothing when it is missing."""
    try:
        _write(path, b"", os.O_WRONLY, durable=False)
    except FileNotFoundError:
        pass


def read(path: Path) -> bytes:
    """The record in `path`: b"" when the file is missing or blank, or a link (not the daemon's record).
    At most MOST bytes and one are read: a longer file is no record a reader can parse."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as e:
        if isinstance(e, FileNotFoundError) or e.errno == errno.ELOOP:
            return b""
        raise
    with os.fdopen(fd, "rb") as f:
        return f.read(MOST + 1).strip()


def _write(path: Path, data: bytes, flags: int, durable: bool) -> None:
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW, 0o666)
    except OSError as e:
        if e.errno != errno.ELOOP:
            raise
        path.unlink()  # a link in the record's place is no record; the record goes in a file of its own
        if not flags & os.O_CREAT:
            return
        fd = os.open(path, flags | os.O_NOFOLLOW, 0o666)
    try:
        size = os.fstat(fd).st_size
        if size > max(MOST, len(data)):
            os.ftruncate(fd, 0)  # a kill before the write leaves no record: what a missing file says
            size = 0
        data = data.ljust(size, b" ")
        done = 0
        while done < len(data):  # a short write (a full disk) raises on the next try
            done += os.pwrite(fd, memoryview(data)[done:], done)
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
