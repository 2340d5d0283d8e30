"""One eval folder's result-cache log: every entry appended to one file, found again by an index of offsets.

A file per entry cost a new inode a cycle, and on a filesystem without a
journal each new inode is searched for past every inode freed in the last
30 s (ext4's `recently_deleted`): the cache's entry was a tenth of the loop's
cost over raw git. So an eval's entries go, one line each, into one file,
created once. An entry is written by a single `write()` with O_APPEND: two
daemons or threads appending at once never interleave their bytes. Each
starts and ends with a newline and empty lines are skipped, so a torn last
entry (a kill in the middle of a write, a full disk) is a line of its own
that fails its check, and never merges with the next append.

The log is read through an index, in memory, from each entry's key (a keyed
64-bit fingerprint) to its offset and a tag of its signature (not its rows):
each look reads only the bytes appended since the last one, and a log put
in another's place (a new inode), cut shorter (the scope guard cuts back what
a mutation appended), rewritten in place (same size, new change time), or
whose last indexed line is no longer where it was (cut, then grown past that
point again) is read again from the start. An entry is checked when indexed (so a torn or
forged one never hides an earlier valid entry of its key) and again when
read, against its tag: one edited in place since reads as absent.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from autoresearch.plumbing import inplace, trees
from autoresearch.plumbing.errors import not_writable, writing

NAME = "entries.log"
CHUNK = 1 << 20  # what a look reads at once: a log read again from its start keeps memory flat
HEAD = 160  # the bytes of a line that `_intact` compares: its header, which holds its key and signature
TAG = 64  # bits of an entry's signature kept in the index, beside its offset
_REPLACED = (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.ENOTDIR)  # a link, a FIFO, a folder in its place

Check = Callable[[bytes], "tuple[int, int] | None"]  # an entry's line -> (key, tag) when it is valid


def _special(path: Path) -> bool:
    """Whether a FIFO or a device is at `path` (a read-only one fails the open with EACCES, as a log would)."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


class Log:
    def __init__(self, path: Path, check: Check):
        self.path = path
        self._check = check
        self._where: dict[int, int] = {}  # an entry's key -> its offset << TAG | its tag
        self._seen: tuple[int, int, int] = (-1, 0, 0)  # (inode, bytes indexed, ctime) at the last look
        self._last: tuple[int, bytes] = (0, b"")  # the last line indexed: its offset and first bytes
        self._scanned = 0  # how far past the last whole line the log was read (a line not ended yet)
        self._lock = threading.Lock()  # one look at a time: parallel candidates look up at once

    def append(self, entry: bytes, checked: tuple[int, int] | None = None) -> None:
        """`entry` (a newline, one line, a newline) added at the log's end in one write; a link, FIFO or
        folder a mutator put in the log's place is removed, never written through. A log of this user's made
        read-only (`chmod -w`, `chmod 000`) is made writable again; one this user cannot write is `NoRoom` naming it.
        `checked`: the entry's key and tag, as `check` gives them (the writer signed it): see `_indexed`."""
        with writing(self.path):
            try:
                fd = self._opened()
            except PermissionError:  # the log's mode or its folder's, and not this user's to give back
                raise not_writable(self.path) from None
            try:
                written = os.write(fd, entry)  # a short write (a full disk) leaves a torn line: read as absent
                if checked is not None and written == len(entry):
                    self._indexed(entry, os.fstat(fd), checked)
            finally:
                os.close(fd)

    def _indexed(self, entry: bytes, st: os.stat_result, checked: tuple[int, int]) -> None:
        """The entry just appended put in the index as a look would put it, where it is all the log gained
        since the last look: the next look then has nothing to read, where reading back and checking the
        writer's own entry was half of the lookup that missed before it (one a cycle). Anything else
        appended first, another inode, or a line other than one: left to the next look, as before. What a
        lookup reads is checked again against its tag, whoever indexed it."""
        start = st.st_size - len(entry)
        if not (entry.startswith(b"\n") and entry.endswith(b"\n") and entry.count(b"\n") == 2):
            return
        with self._lock:
            if self._seen[:2] != (st.st_ino, start) or self._scanned != start:
                return
            self._where[checked[0]] = (start + 1) << TAG | checked[1]
            self._last = (start + 1, entry[1 : 1 + HEAD])
            self._seen, self._scanned = (st.st_ino, st.st_size, st.st_ctime_ns), st.st_size

    def _opened(self) -> int:
        flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags | os.O_CREAT, 0o666)
        except PermissionError:  # made read-only: its owner, this user, gives the bits back
            again = inplace.usable_again(self.path, flags)
            if again is not None:
                return again
            if not _special(self.path):  # another's, a second name of a file, or its folder's mode
                raise
        except OSError as exc:
            if exc.errno not in _REPLACED:
                raise
        else:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                return fd
            os.close(fd)
        if os.path.isdir(self.path) and not os.path.islink(self.path):
            trees.remove(str(self.path))
        else:
            with contextlib.suppress(FileNotFoundError):  # another thread's replacement came first
                os.unlink(self.path)
        try:
            return os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:  # another thread's new log: appended to as it is, if a regular file
            fd = os.open(self.path, flags)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise
            return fd

    def _reading(self) -> int | None:
        """A descriptor open for reading on what is at the log's path, a link not followed; None when nothing can
        be opened there. A log of this user's that lost its read bit (`chmod 000`, `chmod u+w` after it) gets it
        back: unread, every lookup would miss, each sample paid again."""
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            return os.open(self.path, flags)
        except PermissionError:
            return inplace.usable_again(self.path, flags)
        except OSError:
            return None

    def find(self, key: int, limit: tuple[int, int] | None = None) -> tuple[bytes, int] | None:
        """The line of the last valid entry under `key` and its tag, or None; with `limit` (inode, size)
        only an entry that log held whole at that size, indexed before or appended since, counts (see
        autoresearch.runs.cache's `held`: the index is brought up to date when the hold begins)."""
        fd = self._reading()
        if fd is None:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None
            with self._lock:
                whole = self._look(f, st, frozen=limit is not None)
                where = self._where.get(key)
            if not whole or where is None or limit is not None and limit[0] != st.st_ino:
                return None
            offset = where >> TAG
            f.seek(offset)
            line = f.readline()
        if not line.endswith(b"\n") or limit is not None and offset + len(line) > limit[1]:
            return None
        return line[:-1], where & ((1 << TAG) - 1)

    def refresh(self) -> None:
        """Bring the index up to date now (a hold ends: the guard may have cut the log back meanwhile)."""
        fd = self._reading()
        if fd is None:
            return
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode):
                with self._lock:
                    self._look(f, st)

    def _look(self, f: BinaryIO, st: os.stat_result, frozen: bool = False) -> bool:
        """Index the whole lines appended since the last look; from the start when the log is not the one
        indexed, is shorter, or was rewritten in place, or its last indexed line is gone (cut back, then
        grown again). `frozen` (a hold: see `find`'s `limit`): never from the start, as what is there now
        may be a mutator's; returns False, the index left as it is, when it would have to be."""
        inode, done, ctime = self._seen
        if (
            st.st_ino != inode
            or st.st_size < done
            or st.st_size == done
            and st.st_ctime_ns != ctime
            or not self._intact(f, done)
        ):
            if frozen:
                return False
            self._where.clear()
            done = self._scanned = 0
        scanned = self._scanned if done < self._scanned <= st.st_size else done
        carry = b"" if scanned == done else None  # the bytes from `done` to `scanned`; None: read them again
        f.seek(scanned)
        while scanned < st.st_size:
            read = f.read(min(CHUNK, st.st_size - scanned))
            if not read:
                break
            start, scanned = scanned, scanned + len(read)
            end = read.rfind(b"\n") + 1
            if not end:  # within a line longer than a chunk, or torn: read whole once it ends, if it does
                carry = carry + read if carry is not None and len(carry) < CHUNK else None
                continue
            if carry is None:  # a line begun in an earlier look, or long: its bytes read again, once
                f.seek(done)
                data = f.read(start + end - done)
                f.seek(scanned)
                if not data.endswith(b"\n"):  # cut meanwhile: the next look sees it shorter
                    scanned = done
                    break
            else:
                data = carry + read[:end]
            self._index(data, done)
            done += len(data)
            carry = read[end:]
        self._seen = (st.st_ino, done, st.st_ctime_ns)
        # the bytes from `done` to `scanned` held no newline: not read again. A line there that ends later
        # is read from `done`, whole, and split on all its newlines: one cut back and grown meanwhile loses nothing
        self._scanned = scanned
        return True

    def _intact(self, f: BinaryIO, done: int) -> bool:
        """Whether the last line indexed is still where it was, ending where indexing stopped (a log cut
        back and grown past that point again before a look has other bytes there)."""
        start, head = self._last
        if not done:
            return True
        f.seek(start)
        if f.read(len(head)) != head:
            return False
        f.seek(done - 1)
        return f.read(1) == b"\n"

    def _index(self, data: bytes, base: int) -> None:
        if data:  # its last line's start (its header: the entry's key and signature), for `_intact`
            start = data.rfind(b"\n", 0, len(data) - 1) + 1
            self._last = (base + start, data[start : start + HEAD])
        at = 0
        while at < len(data):
            end = data.index(b"\n", at)
            if end > at:
                valid = self._check(data[at:end])
                if valid is not None:
                    key, tag = valid
                    self._where[key] = (base + at) << TAG | tag
            at = end + 1
