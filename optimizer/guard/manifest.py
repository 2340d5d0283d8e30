"""What every guarded path holds: its kind, permission bits and the git object id of its bytes.

Two entries are equal when kind, mode and content are: a `touch`, or git
rewriting a file with the same bytes, is no change. The stat signature beside
them lets a walk skip re-reading a file whose size, times and inode did not
move; a file written in the last seconds before it was read is "racy" (a second
write in the same clock tick would leave the signature as it was) and is read
again on every walk until it is older.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from autoresearch.optimizer.gitrepo import oids
from autoresearch.plumbing import inplace

RACY_NS = 2_000_000_000
CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)  # slots: the guard holds one per path for the whole night
class Entry:
    kind: str  # "file" | "link" | "dir" | "other" (a fifo or socket: only its presence is guarded)
    mode: int  # permission bits
    oid: str  # git blob id of a file's bytes or a link's target; "" for the rest
    size: int = field(default=0, compare=False)
    sig: tuple[int, ...] = field(default=(), compare=False)  # (size, mtime_ns, ctime_ns, ino)
    racy: bool = field(default=False, compare=False)


def as_left(path: Path, left: tuple[int, int] | None) -> bool:
    """Whether the file at `path` is as this process left it, `left` being its (inode, size) then: a file
    put in its place, or bytes appended or cut by anyone else, show."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return (st.st_ino, st.st_size) == left


@contextmanager
def opened(path: str) -> Iterator[BinaryIO]:
    """The regular file a walk's lstat found at `path`, open for reading; FileNotFoundError when it is gone or
    anything else is there now: a FIFO (whose open would wait for a writer forever) or a link (to /dev/zero,
    read without end) that a process the mutator left put in its place since. Its next event, or the next
    walk, shows what is there."""
    with inplace.regular(path) as found:
        if found is None:
            raise FileNotFoundError(errno.ENOENT, "no regular file here any more", path)
        yield found[0]


def blob_oid(path: str, size: int) -> str:
    """The id git gives these bytes, read in chunks (a large ignored file is never held in memory)."""
    digest = hashlib.sha1(b"blob %d\0" % size)
    with opened(path) as f:
        read = 0
        while chunk := f.read(CHUNK):
            digest.update(chunk)
            read += len(chunk)
    if read != size:  # it changed while being read: hash what is there now
        return blob_oid(path, read)
    return digest.hexdigest()


def bytes_oid(data: bytes) -> str:
    return oids.blob(data).hex()


class Handed:
    """Bytes a look read whole to hash, handed on to the backups (autoresearch.optimizer.guard.backups), which
    keep what the settled state holds: each settled file was read and hashed a second time there, a
    growing log (git's reflogs) twice more each cycle. Up to `budget` bytes are held at a time, none of a
    file larger than `largest`; any other file is hashed a chunk at a time, as without them."""

    def __init__(self, budget: int, largest: int):
        self.budget, self.largest = budget, largest
        self.held: dict[str, tuple[str, bytes]] = {}  # path -> (the id of its bytes, the bytes)
        self.size = 0

    def oid(self, path: str, size: int) -> str:
        """`blob_oid(path, size)`, the bytes kept for `take` when they fit."""
        if size > self.largest or self.size + size > self.budget:
            return blob_oid(path, size)
        with opened(path) as f:
            data = f.read(size + 1)  # no more: a file grown since its stat (a sparse GiB) is never read whole
        if len(data) > size:
            return blob_oid(path, size)
        oid = bytes_oid(data)
        self._drop(path)
        self.held[path] = (oid, data)
        self.size += len(data)
        return oid

    def take(self, path: str, oid: str) -> bytes | None:
        """The bytes read at `path` if they are the ones `oid` names (a later look may have kept an older
        entry), given up."""
        held = self._drop(path)
        return held[1] if held is not None and held[0] == oid else None

    def _drop(self, path: str) -> tuple[str, bytes] | None:
        held = self.held.pop(path, None)
        if held is not None:
            self.size -= len(held[1])
        return held

    def clear(self) -> None:
        self.held.clear()
        self.size = 0


def entry_of(
    path: str, st: os.stat_result, previous: Entry | None, reread: bool, handed: Handed | None = None
) -> Entry:
    """The entry for `path` as `st` describes it, reusing `previous`'s id when nothing says the bytes moved;
    the bytes read to hash are kept in `handed`, when given."""
    sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    mode = stat.S_IMODE(st.st_mode)
    if stat.S_ISDIR(st.st_mode):
        return Entry("dir", mode, "", sig=sig)
    if stat.S_ISLNK(st.st_mode):
        return Entry("link", mode, bytes_oid(os.fsencode(os.readlink(path))), st.st_size, sig)
    if not stat.S_ISREG(st.st_mode):
        return Entry("other", mode, "", sig=sig)
    if previous is not None and previous.kind == "file" and previous.sig == sig and not previous.racy and not reread:
        return previous  # a chmod moves ctime, so the mode is the same too
    racy = time.time_ns() - st.st_ctime_ns < RACY_NS
    try:
        oid = blob_oid(path, st.st_size) if handed is None else handed.oid(path, st.st_size)
    except OSError:  # unreadable (permissions): guarded by its signature alone
        oid = "unreadable:" + ":".join(map(str, sig))
    return Entry("file", mode, oid, st.st_size, sig, racy)


def walk(top: str, skip: Callable[[str], bool]) -> Iterator[tuple[str, os.stat_result]]:
    """`top` and everything under it that `skip` does not exclude, never following a symlink."""
    if skip(top):
        return
    try:
        st = os.lstat(top)
    except OSError:
        return
    yield top, st
    if not stat.S_ISDIR(st.st_mode):
        return
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as entries:
                for item in entries:
                    if skip(item.path):
                        continue
                    try:
                        item_st = item.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    yield item.path, item_st
                    if stat.S_ISDIR(item_st.st_mode):
                        stack.append(item.path)
        except OSError:
            continue
