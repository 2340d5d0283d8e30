"""One entry of the user's index written in place of git's `add` of it: the artifact's, as `git commit --only`
or `git checkout HEAD --` leave it.

As git writes an index: `index.lock` made first (O_EXCL: a git at work, or one killed, holds it; then nothing
is written here), the index read under it, the new bytes written to the lock and renamed over the index. Only
the entry's status fields (times, device, inode, mode, owner, size) and object id change, in place: every
other entry, its flags, and the extensions git keeps for speed stay byte for byte, but the cache tree's
entries on the artifact's path, which are marked invalid (as `git add` leaves them; git writes them again at
its next commit). An index with any other extension (a split or sparse index, the untracked cache, the file
system monitor's, the end-of-entries offsets), an entry marked assume-unchanged, skip-worktree or
intent-to-add, or the path in conflict, is left to git.
"""

from __future__ import annotations

import hashlib
import os
import struct
from dataclasses import dataclass

from autoresearch.optimizer.gitrepo import indexflags, rawread

KEPT = (b"TREE", b"REUC")  # the extensions written back (the cache tree's path invalidated), all others git's
ID = 20  # SHA-1: an index of another object format is git's
_STAGE = 0x3000


@dataclass(frozen=True)
class Entry:
    """The artifact's entry as found: where it is in the bytes, its mode and object id."""

    offset: int
    mode: int
    oid: bytes


@dataclass
class Index:
    """An index file's bytes, its entries' end, and the artifact's entry."""

    data: bytes
    end: int
    entry: Entry


def read(git_dir: str, path: str) -> Index | None:
    """The index of `git_dir` with `path`'s entry, if it is one written here (see the module); else None."""
    data = rawread.whole(os.path.join(git_dir, "index"))
    return None if data is None else parse(data, os.fsencode(path))


def parse(data: bytes, path: bytes) -> Index | None:
    if len(data) < 12 + ID or data[:4] != b"DIRC":
        return None
    version, count = struct.unpack_from(">II", data, 4)
    if version not in (2, 3, 4):
        return None
    try:
        entries, end = indexflags.walk(data, version, count, ID)
    except (struct.error, ValueError, IndexError):
        return None
    named = [(offset, flags, extended) for offset, flags, extended, name in entries if name == path]
    if len(named) != 1 or _extensions(data, end) is None:
        return None  # untracked, or in conflict (an entry for each stage)
    offset, flags, extended = named[0]
    if flags & (0x8000 | _STAGE) or extended:  # assume-unchanged, a stage, skip-worktree or intent-to-add
        return None
    (mode,) = struct.unpack_from(">I", data, offset + 24)
    return Index(data, end, Entry(offset, mode, data[offset + 40 : offset + 40 + ID]))


def _extensions(data: bytes, end: int) -> list[tuple[bytes, bytes]] | None:
    found = []
    at, stop = end, len(data) - ID
    while at < stop:
        signature, (size,) = data[at : at + 4], struct.unpack_from(">I", data, at + 4)
        if signature not in KEPT or at + 8 + size > stop:
            return None
        found.append((signature, data[at + 8 : at + 8 + size]))
        at += 8 + size
    return found if at == stop else None


def current(git_dir: str, path: str, oid: bytes, mode: int, st: os.stat_result) -> bool:
    """Whether the index of `git_dir` has `path`'s entry as `patched` would write it for `oid`, `mode` and the
    file's status `st`: git's checkout of a file that is HEAD's by its bytes then writes nothing; otherwise it
    writes the file and the entry anew (git's plumbing, which never refreshes the index, would call the file
    changed by its status alone). False for an index written by git alone (see `read`)."""
    index = read(git_dir, path)
    return (
        index is not None and index.data[index.entry.offset : index.entry.offset + 40 + ID] == _status(st, mode) + oid
    )


def patched(index: Index, path: str, oid: bytes, mode: int, st: os.stat_result) -> bytes:
    """The index's bytes with `path`'s entry naming `oid` and `mode`, its status fields from `st` (`_status`);
    the cache tree invalidated on the path when the entry names other content than before."""
    at = index.entry.offset
    body = index.data[:at] + _status(st, mode) + oid + index.data[at + 40 + ID : index.end]
    extensions = _extensions(index.data, index.end) or []
    same = (index.entry.oid, index.entry.mode) == (oid, mode)
    for signature, content in extensions:
        if signature == b"TREE" and not same:
            content = _invalidated(content, os.fsencode(path).split(b"/")[:-1])
        body += signature + struct.pack(">I", len(content)) + content
    trailer = index.data[-ID:]
    return body + (trailer if trailer == bytes(ID) else hashlib.sha1(body).digest())  # index.skipHash kept


def _status(st: os.stat_result, mode: int) -> bytes:
    """An entry's status fields for a file of status `st` and `mode`, as git's fill_stat_cache_info takes
    them, each cut to 32 bits."""
    fields = (
        int(st.st_ctime),
        st.st_ctime_ns % 1_000_000_000,
        int(st.st_mtime),
        st.st_mtime_ns % 1_000_000_000,
        st.st_dev,
        st.st_ino,
        mode,
        st.st_uid,
        st.st_gid,
        st.st_size,
    )
    return struct.pack(">10I", *(value & 0xFFFFFFFF for value in fields))


def _invalidated(tree: bytes, folders: list[bytes]) -> bytes:
    """The cache tree extension with the root and each of `folders` (the path's, outermost first) marked
    invalid: entry count -1, no object id (gitformat-index: "Cache tree")."""
    out = bytearray()

    def node(at: int, below: list[bytes] | None) -> int:  # `below`: the folders still to go (None: off the path)
        nul = tree.index(b"\0", at)
        newline = tree.index(b"\n", nul)
        count, subtrees = (int(n) for n in tree[nul + 1 : newline].split(b" "))
        after = newline + 1 + (ID if count >= 0 else 0)
        if below is not None and count >= 0:
            out.extend(tree[at:nul] + b"\0-1 " + str(subtrees).encode() + b"\n")
        else:
            out.extend(tree[at:after])
        for _ in range(subtrees):
            name = tree[after : tree.index(b"\0", after)]
            after = node(after, below[1:] if below and name == below[0] else None)
        return after

    node(0, folders)
    return bytes(out)


class Lock:
    """git's `index.lock`, taken (O_EXCL) or not at all: `taken` says which."""

    def __init__(self, git_dir: str):
        self.path = os.path.join(git_dir, "index.lock")
        self.index = os.path.join(git_dir, "index")
        try:
            self.fd: int | None = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            self.fd = None
        self.held = self.fd is not None

    @property
    def taken(self) -> bool:
        return self.held

    def write(self, data: bytes) -> None:
        """`data` written to the lock, still held (git's commit holds it until its branch has moved)."""
        assert self.fd is not None
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        os.close(self.fd)
        self.fd = None

    def commit(self, data: bytes | None = None) -> None:
        """`data` (or what `write` wrote) written to the lock, renamed over the index."""
        if data is not None:
            self.write(data)
        os.rename(self.path, self.index)
        self.held = False

    def release(self) -> None:
        """The lock removed, nothing written (a no-op once committed)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.held:
            self.held = False
            os.unlink(self.path)
