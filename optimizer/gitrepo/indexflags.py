"""The index entries whose file git's status never looks at: marked assume-unchanged (`git update-index
--assume-unchanged`, the entry's "valid" bit) or skip-worktree (`--skip-worktree`, an extended flag).

git and libgit2 alike take such an entry's file for HEAD's without reading it: a mutator that may write its
worktree's index (one without a sandbox: the worktree's git folder lies under .git/worktrees, where the
scope guard does not look) could edit a tracked file there, a test or a grader, mark it, and have its
status name the artifact alone. pygit2 does not give an entry's flags, so the index file is read here
(format versions 2 to 4, as git's Documentation/gitformat-index.txt gives them).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from typing import NamedTuple

_VALID, _EXTENDED = 0x8000, 0x4000  # an entry's flags
_SKIP_WORKTREE = 0x4000  # its extended flags (version 3 and later)
_STAT = 40  # ctime, mtime (8 bytes each), dev, ino, mode (at 24), uid, gid, size (4 each): before the object id


class Unlooked(NamedTuple):
    """An index entry git's status does not compare with its file."""

    path: str
    valid: bool  # marked assume-unchanged (else skip-worktree)
    mode: int  # as the index records it (0o100644, 0o120000, ...)
    oid: bytes  # the blob the index names


def unlooked(git_dir: str, id_size: int, listing: Callable[[], str]) -> list[Unlooked] | None:
    """The index entries git's status does not compare with their file (see the module's docstring), in the
    index of the git folder `git_dir`, whose object ids are `id_size` bytes; a split index (`core.splitIndex`:
    its entries partly in a shared file, named by position) from `listing()`, git's `ls-files -v -s -z`. None
    when the index cannot be read here (another format): then nothing is vouched for."""
    try:
        with open(os.path.join(git_dir, "index"), "rb") as index:
            data = index.read()
    except FileNotFoundError:
        return []
    except OSError:
        return None
    if len(data) < 12 or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack_from(">II", data, 4)
    if version not in (2, 3, 4):
        return None
    try:
        found, offset = _walk(data, version, count, id_size)
        if _split(data, offset, id_size):
            return _listed(listing())
    except (struct.error, ValueError, IndexError):  # cut short, or not what its header says
        return None
    return found


def _split(data: bytes, offset: int, id_size: int) -> bool:
    """Whether the extensions after the entries (each a signature and a size) name a shared index (`link`)."""
    while offset + 8 <= len(data) - id_size:
        signature, (size,) = data[offset : offset + 4], struct.unpack_from(">I", data, offset + 4)
        if signature == b"link":
            return True
        offset += 8 + size
    return False


def _listed(listing: str) -> list[Unlooked]:
    """The marked entries `git ls-files -v -s -z` lists: `<tag> <mode> <object> <stage>\t<path>`, the tag
    lower-case when assume-unchanged, `S` (or `s`) when skip-worktree."""
    found = []
    for record in filter(None, listing.split("\0")):
        fields, path = record.split("\t", 1)
        tag, mode, oid, _ = fields.split(" ")
        if tag.islower() or tag.upper() == "S":
            found.append(Unlooked(path, tag.islower(), int(mode, 8), bytes.fromhex(oid)))
    return found


def _walk(data: bytes, version: int, count: int, id_size: int) -> tuple[list[Unlooked], int]:
    """The marked entries, and where the entries end."""
    found: list[Unlooked] = []
    listed, end = walk(data, version, count, id_size)
    for offset, flags, extended, path in listed:
        if flags & _VALID or extended & _SKIP_WORKTREE:
            (mode,) = struct.unpack_from(">I", data, offset + 24)
            oid = data[offset + _STAT : offset + _STAT + id_size]
            found.append(Unlooked(os.fsdecode(path), bool(flags & _VALID), mode, oid))
    return found, end


def walk(data: bytes, version: int, count: int, id_size: int) -> tuple[list[tuple[int, int, int, bytes]], int]:
    """Each entry of an index file's bytes as (its offset, flags, extended flags, path), and where the entries
    end; raises struct.error, ValueError or IndexError where the bytes are not what the header says."""
    found = []
    offset, previous = 12, b""
    for _ in range(count):
        offset_of_entry = offset
        at = offset + _STAT + id_size
        (flags,) = struct.unpack_from(">H", data, at)
        at += 2
        extended = 0
        if flags & _EXTENDED:
            if version < 3:
                raise ValueError("an extended entry in a version 2 index")
            (extended,) = struct.unpack_from(">H", data, at)
            at += 2
        if version < 4:
            end = data.index(b"\0", at)
            path = data[at:end]
            offset += (end - offset + 8) & ~7  # padded with 1 to 8 NULs to a multiple of 8 bytes
        else:
            strip, at = _varint(data, at)
            end = data.index(b"\0", at)
            if strip > len(previous):
                raise ValueError("a path prefix longer than the previous path")
            path = previous[: len(previous) - strip] + data[at:end]
            offset = end + 1
        previous = path
        found.append((offset_of_entry, flags, extended, path))
    return found, offset


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """git's offset varint (varint.c): seven bits a byte, most significant first, one added per byte that
    continues."""
    byte = data[at]
    at += 1
    value = byte & 0x7F
    while byte & 0x80:
        byte = data[at]
        at += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, at
