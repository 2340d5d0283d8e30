"""The object id git gives a file's bytes, worked out in-process: one definition for the commit, the restore,
the cycle's key and the guard's manifest (each compares a file with what git holds without asking git)."""

from __future__ import annotations

import hashlib


def blob(data: bytes) -> bytes:
    """The raw SHA-1 id of a blob of `data` (`git hash-object`'s, as bytes)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).digest()
