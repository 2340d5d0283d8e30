"""A small file of git's read whole in the fewest system calls: the index, a ref.

Python's `open(path, "rb").read()` asks the kernel seven times besides the read (a status twice, whether it is
a terminal, where it is twice, the read that finds the end, the close); here it is the open, the reads and the
close. The index is read twice a KEEP or DROP and a branch's ref once a KEEP.
"""

from __future__ import annotations

import os

CHUNK = 1 << 20


def whole(path: str) -> bytes | None:
    """The bytes of the file at `path` (a link followed, as git follows it); None when it cannot be opened or
    read (a folder opens, and fails at its read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        chunks = []
        while chunk := os.read(fd, CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
