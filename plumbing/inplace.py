"""Small record files rewritten in place: the same file, its old bytes written over.

A file the daemon rewrites every cycle (a note made before each git write, a KEEP's pending line) cost a
new file each time: creating or replacing one is 100-500 us of CPU on an ext4 disk (an inode and a
directory entry, journaled by the kernel), a write over an existing file's bytes ~3 us. A record written
this way is JSON followed by blanks (the rest of a longer record before it), which every JSON reader takes
as it is; blank alone is no record. It is not atomic against readers in other processes, nor against a
kill -9 in the middle of a write of several pages: only for files whose readers are the daemon's own next
start and whose record is checked for what it claims before it is trusted.
"""

from __future__ import annotations

import os
from pathlib import Path


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
    """The record in `path`: b"" when the file is missing or blank."""
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        return b""


def _write(path: Path, data: bytes, flags: int, durable: bool) -> None:
    fd = os.open(path, flags, 0o666)
    try:
        data = data.ljust(os.fstat(fd).st_size, b" ")
        done = 0
        while done < len(data):  # a short write (a full disk) raises on the next try
            done += os.pwrite(fd, memoryview(data)[done:], done)
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
