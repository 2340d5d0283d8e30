"""A file of the daemon's own written over in place, rather than made anew, when it is still its own.

Creating a file (a temporary one renamed over the old, or a probe made and unlinked) costs 100-500 us of
CPU on an ext4 disk: an inode and a directory entry, journaled by the kernel. Writing over an existing
file's bytes costs some 3-10 us, setting its times 2 us. Only for files that no reader reads while the
daemon writes them, and whose content is made whole again, or checked for what it claims, before any
reader trusts it after a kill. Two endings:

- `cut`: the new bytes, then the file cut to their length (the digest: a kill before the cut leaves the old
  text's tail, and the next start writes the digest whole again). False where the file is not `owned`: the
  caller makes it anew (atomic.write_bytes).
- `write`: the new bytes, then the rest blanked (the small records: a note made before each git write, a
  KEEP's pending line). A record is JSON followed by blanks, which every JSON reader takes as it is; blank
  alone is no record (`blank`, `read`). A file far larger than any record (a sparse one of a terabyte) is
  cut to nothing before the write rather than blanked byte by byte in memory.

A mutator that is not sandboxed can put anything at the file's path. What is written over is only a
regular file with no other name (`owned`): never what a symbolic link names (not followed), nor a user's
file that a hard link made a second name of, nor a FIFO (opening one never blocks: it is not a regular
file). Anything else is no record of the daemon's: `write` removes the name and makes its file anew there
(O_EXCL: a link put back in between is not followed either), `blank` removes the name, `read` finds nothing;
a folder there is never removed: `write` raises IntegrityError (exit 50), naming it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from autoresearch.plumbing.errors import IntegrityError, InvalidInput

MOST = 1 << 20  # bytes: far above any record (a pending line of a parallel cycle is some kB)
_RW = stat.S_IRUSR | stat.S_IWUSR  # what the daemon needs of its own file
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def owned(path: Path | str) -> int | None:
    """A descriptor open for writing on `path` when it is a regular file of one name, not a link; else None
    (missing, or anything else in its place). The caller closes it."""
    opened = _opened(path, os.O_WRONLY)
    return None if opened is None else opened[0]


def usable_again(path: Path | str, flags: int, inode: int | None = None) -> int | None:
    """A descriptor opened with `flags` (never a creation) on the daemon's own file at `path` whose owner's
    read or write bit was taken away (an admin's `chmod -w`, a mutator's `chmod 444` or `chmod 000`): both
    given back through a descriptor that opens no file's content (O_PATH: a file of mode 000 is still
    reached, and `/proc/self/fd/N` names the very file opened, never what a link names), then the file opened
    again and checked to be the same. The daemon's own: a regular file this user owns, and either the `inode`
    the caller recorded or a file of one name (a user's file a hard link put there is never changed). None
    otherwise, or when the file was replaced meanwhile or cannot be opened all the same (an ACL's refusal)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)  # a link is opened itself: no regular file
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        own = st.st_ino == inode if inode is not None else st.st_nlink == 1
        if not stat.S_ISREG(st.st_mode) or not own or st.st_uid != os.geteuid():
            return None
        if st.st_mode & _RW != _RW:  # else given back already (another thread's repair): opened as it is
            os.chmod(f"/proc/self/fd/{fd}", st.st_mode & 0o777 | _RW)  # a set-user-ID bit a mutator added goes too
        again = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    finally:
        os.close(fd)
    if os.path.samestat(os.fstat(again), st):
        return again
    os.close(again)
    return None


def cut(path: Path, data: bytes, between: Callable[[], None] = lambda: None) -> bool:
    """`data` written over the start of `path`, then the file cut to its length; False, having written
    nothing, when `path` is not `owned`. A kill before the cut leaves `data` followed by the old text's
    tail (`between` runs there: the kill tests' point)."""
    fd = owned(path)
    if fd is None:
        return False
    try:
        overwrite(fd, data, between)
    finally:
        os.close(fd)
    return True


def overwrite(fd: int, data: bytes, between: Callable[[], None] = lambda: None) -> None:
    """`data` written over the start of the file open at `fd`, then the file cut to its length (`cut`, for a
    descriptor the caller opened and checked: `owned`). Never cut to nothing first: a file cut to zero and
    written again is flushed to the disk at its close by ext4 (its `auto_da_alloc`), which the caller's
    new file never was."""
    _over(fd, data)
    between()
    os.ftruncate(fd, len(data))


def write(path: Path, data: bytes, durable: bool = False) -> None:
    """`data` at the start of `path`, the rest of the file blanked; fsync'd if `durable`. Where `path` is
    not `owned` (missing, or not the daemon's: see the module), a file of the daemon's own is made there."""
    opened = _opened(path, os.O_WRONLY)
    fd, size = opened if opened is not None else (anew(path), 0)
    try:
        if size > max(MOST, len(data)):
            os.ftruncate(fd, 0)  # a kill before the write leaves no record: what a missing file says
            size = 0
        _over(fd, data.ljust(size, b" "))
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)


def blank(path: Path) -> None:
    """`path` made blank (no record) in place; nothing when it is missing; removed when it is not the
    daemon's own file (a link, a second name of another file: never blanked through)."""
    opened = _opened(path, os.O_WRONLY)
    if opened is None:
        if os.path.lexists(path) and not os.path.isdir(path):
            os.unlink(path)
        return
    fd, size = opened
    try:
        if size > MOST:
            os.ftruncate(fd, 0)
        else:
            _over(fd, b" " * size)
    finally:
        os.close(fd)


def read(path: Path) -> bytes:
    """The record in `path`: b"" when the file is missing or blank, or not the daemon's own (a link, a
    second name of another file, a FIFO: never opened to block). At most MOST bytes and one are read: a
    longer file is no record a reader can parse."""
    opened = _opened(path, os.O_RDONLY)
    if opened is None:
        return b""
    with os.fdopen(opened[0], "rb") as f:
        return f.read(MOST + 1).strip()


def whole(path: Path, what: str) -> bytes | None:
    """A file the daemon replaces whole (state.json), read whole by anyone; None when it is missing. Opened
    without blocking: anything but a regular file there (a folder; a FIFO, on which a plain read waits for
    a writer forever, `status` with it) is InvalidInput naming it. A link is followed: its reader only reads."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InvalidInput(f"{path}: {what} cannot be read ({exc.strerror}); move it away to start over") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InvalidInput(f"{path}: {what} is not a file; move it away to start over")
    with os.fdopen(fd, "rb") as file:
        return file.read()


def contents(path: Path | str, most: int) -> tuple[bytes, os.stat_result] | None:
    """The bytes of the regular file at `path` and its status, read without following a link or blocking on a
    FIFO put in its place; None when anything else is there, or it holds more than `most` bytes, as stat'ed or
    as read (grown since: never read past the bound). Read from the descriptor, with no Python file object
    (its `isatty` and `lseek`): a few calls a cycle."""
    found = _regular(path)
    if found is None:
        return None
    fd, st = found
    try:
        if st.st_size > most:
            return None
        parts, left = [], most + 1
        while left > 0 and (part := os.read(fd, min(max(st.st_size + 1, 4096), left))):  # to the end, or the bound
            parts.append(part)
            left -= len(part)
        return (b"".join(parts), st) if left > 0 else None
    finally:
        os.close(fd)


@contextmanager
def regular(path: Path | str) -> Iterator[tuple[BinaryIO, os.stat_result] | None]:
    """The regular file at `path` open for reading, and its status; None for anything else there, or nothing.
    A link is never followed, a FIFO put in its place never blocks the open."""
    found = _regular(path)
    if found is None:
        yield None
        return
    with os.fdopen(found[0], "rb") as file:
        yield file, found[1]


def _regular(path: Path | str) -> tuple[int, os.stat_result] | None:
    """`regular`'s descriptor (the caller closes it) and status."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if stat.S_ISREG(st.st_mode):
        return fd, st
    os.close(fd)
    return None


def _opened(path: Path | str, flags: int) -> tuple[int, int] | None:
    """`owned`'s descriptor (opened with `flags`) and the file's size, from one fstat."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
        return fd, st.st_size
    os.close(fd)
    return None


def anew(path: Path | str) -> int:
    """A descriptor open for writing on a new empty file at `path`, made there by this call: whatever had the
    name (a leftover of a kill, a symbolic link a process the mutator left put at a name it can foresee) is
    removed first, and the name is never followed (O_EXCL: a link put back in between is removed again, then
    FileExistsError), so the bytes never reach a file a link names. A folder is not removed (what is in it is
    someone's): IntegrityError, which says so, rather than a traceback. The caller closes the descriptor."""
    for _ in range(3):  # a name put back in between (a process the mutator left): removed again
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            raise IntegrityError(
                f"{path}: a folder where autoresearch keeps a record of its own; move it away and start again"
            ) from None
        try:
            return os.open(path, _NEW, 0o666)
        except FileExistsError:
            continue
    return os.open(path, _NEW, 0o666)


def _over(fd: int, data: bytes) -> None:
    done = 0
    while done < len(data):  # a short write (a full disk) raises on the next try
        done += os.pwrite(fd, memoryview(data)[done:], done)
