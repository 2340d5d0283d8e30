"""The experiment's own records that later decisions trust, kept out of a mutator's reach.

The scope guard leaves the results directory out (the daemon writes its log, its
state and the cycle's run directory while the mutator runs). Some of what lies
there is read back to decide, though: iterations.jsonl (the best, its run
directory, the spend), holdout.json (the split), the held-out results, and the
baseline run's result files (what every candidate is compared with once the
experiment is resumed, the next night). A command mutator that lowered the
baseline's scores there got a worse candidate kept the next night. So their
bytes are read into the daemon's memory before each mutation and compared after
it; whatever changed is moved aside (nothing is lost), put back, and makes the
candidate out of scope. A large record (iterations.jsonl, a line longer each cycle)
is copied instead, a chunk at a time, into a file that has no name (none in any
folder, so no sandboxed mutator can reach it), and compared with it a chunk at a
time: read whole before and after every mutation, it was the cycle's largest
allocation, growing with the night.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import BinaryIO, TypeVar

from autoresearch.optimizer.guard.ledger import Ledger, Mark
from autoresearch.plumbing import atomic, kinds

T = TypeVar("T")

SMALL = 64 * 1024  # a record up to this size is held in memory; a larger one is copied (see `Copy`)
CHUNK = 64 * 1024  # what a copy or a comparison reads at a time


@dataclass(frozen=True)
class Copy:
    """A large record's bytes in an unlinked file beside it (the same disk: a tmpfs would be memory again). A
    digest of the bytes held in memory would tell a change even from a copy changed too, through the daemon's
    /proc entry by an unsandboxed process; hashing the record twice a cycle cost more than the copy and the
    comparison together (0.5 ms a cycle at 1,000 lines)."""

    file: BinaryIO
    size: int

    @classmethod
    def of(cls, source: BinaryIO, folder: Path) -> Copy:
        copy = tempfile.TemporaryFile(dir=folder)  # O_TMPFILE: never a name, in any folder, at any time
        shutil.copyfileobj(source, copy, CHUNK)
        return cls(copy, copy.tell())

    def same_as(self, path: Path) -> bool:
        """Whether `path` is a regular file of these bytes."""
        return _opened(path, self._same) is True

    def _same(self, f: BinaryIO, size: int) -> bool:
        if size != self.size:
            return False
        self.file.seek(0)
        while chunk := f.read(CHUNK):
            if chunk != self.file.read(len(chunk)):
                return False
        return True


Held = bytes | Copy | Mark | None  # a record's bytes, its copy, the ledger's mark, or None where there is no file


@dataclass(frozen=True)
class Watched:
    """Single files, and folders whose files matching `pattern` count (new ones included), but those under
    `busy`: where the daemon itself writes while the mutators run (the held-out results of the cycle
    evaluated meanwhile, when mutations overlap it), which no later decision reads back from disk; and the
    file of `ledger`, held by its mark."""

    files: tuple[Path, ...]
    folders: tuple[tuple[Path, str], ...]
    busy: tuple[Path, ...] = ()
    ledger: Ledger | None = None

    def paths(self) -> list[Path]:
        found = [*self.files, *([self.ledger.file] if self.ledger else [])]
        for folder, pattern in self.folders:
            if kinds.plain_folder(folder, strict=True):  # one lstat, where is_dir and is_symlink made two
                found += [path for path in _matching(folder, pattern) if not self._busy(path)]
        return found

    def current(self) -> dict[Path, Held]:
        ledger = self.ledger
        return {path: ledger.mark() if ledger and path == ledger.file else _hold(path) for path in self.paths()}

    def _busy(self, path: Path) -> bool:
        return any(path.is_relative_to(place) for place in self.busy)


SETTLED_NS = 3_000_000_000  # a folder changed this recently is listed again each time (see `_matching`)
KEEP = 4  # listings kept: the best run's folder and the held-out results', with room for a new best


Stamp = tuple[int, int, int]  # a folder's device, inode and change time


@dataclass(frozen=True)
class _Listing:
    paths: tuple[Path, ...]
    folders: tuple[tuple[str, Stamp], ...]  # each folder listed, and its `_stamp`


_listings: dict[tuple[Path, str], _Listing] = {}  # (folder, pattern) -> its listing, the oldest first


def _matching(folder: Path, pattern: str) -> list[Path]:
    """`folder.rglob(pattern)`, listed again only when a folder in it changed since: the best run's folder
    was listed twice a cycle (about 150 us each), and changes only when a run is kept. Any name made,
    removed or renamed in a folder moves the folder's change time to the clock's (no process can set it
    back), so a listing is kept only while each folder's change time is as it was, and only when each was
    SETTLED_NS old when listed: a change made later, in the same tick of the filesystem's clock, would
    leave it as it was. A symbolic link below `folder` (which rglob may follow) keeps none."""
    key = (folder, pattern)
    kept = _listings.get(key)
    if kept is not None and all(_stamp(path) == stamp for path, stamp in kept.folders):
        return list(kept.paths)
    _listings.pop(key, None)
    settled = time.time_ns() - SETTLED_NS
    scanned = _scan(os.fspath(folder), pattern)
    if scanned is None:  # a symbolic link below, or a folder that went: as rglob finds them, and not kept
        return list(folder.rglob(pattern))
    folders, found = scanned
    if all(stamp[2] < settled for _, stamp in folders):
        if len(_listings) >= KEEP:
            del _listings[next(iter(_listings))]
        _listings[key] = _Listing(tuple(found), folders)
    return found


def _scan(top: str, pattern: str) -> tuple[tuple[tuple[str, Stamp], ...], list[Path]] | None:
    """Each folder from `top` down with its `_stamp` (taken before the folder is listed: a change made during
    the listing moves it), and what in them matches `pattern` (as `rglob` matches it: folders too, hidden
    names too), from one listing of each folder (a second, rglob's own, was most of a fresh listing's
    time); None when a symbolic link or anything unreadable is there."""
    folders, found, stack = [], [], [top]
    while stack:
        path = stack.pop()
        stamp = _stamp(path)
        if stamp is None:
            return None
        folders.append((path, stamp))
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    if entry.is_symlink():
                        return None
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                    if fnmatchcase(entry.name, pattern):
                        found.append(Path(entry.path))
        except OSError:
            return None
    return tuple(folders), found


def _stamp(path: str) -> Stamp | None:
    """A folder's device, inode and change time; None when it is no folder now."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_ctime_ns) if stat.S_ISDIR(st.st_mode) else None


@dataclass(frozen=True)
class Snapshot:
    watched: Watched
    before: dict[Path, Held]

    def close(self) -> None:
        """Drop the copies (their files go with them)."""
        for held in self.before.values():
            if isinstance(held, Copy):
                held.file.close()


def take(watched: Watched) -> Snapshot:
    return Snapshot(watched, watched.current())


def restore(snapshot: Snapshot, aside: Path, base: Path) -> list[Path]:
    """Put every changed record back; what the mutation left there is moved under `aside` (at its path
    relative to `base`). Returns the changed paths. The snapshot is closed: it is used once."""
    try:
        before, listed = snapshot.before, set(snapshot.watched.paths())
        changed = sorted(p for p in {*before, *listed} if not _same(p, before.get(p), p in listed))
        for path in changed:
            if os.path.lexists(path):
                copy = aside / path.relative_to(base)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(path), copy)
            held = before.get(path)
            if held is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                _put(path, held)
        return changed
    finally:
        snapshot.close()


def _same(path: Path, held: Held, listed: bool) -> bool:
    """Whether `path` holds what was held; a path no longer listed (its folder gone, or a symlink now) holds nothing."""
    if not listed:
        return held is None
    return held.same_as(path) if isinstance(held, Copy | Mark) else _read(path) == held


def _put(path: Path, held: bytes | Copy | Mark) -> None:
    """`held` put at `path` through a temporary file of an unforeseeable name (atomic.write_chunks): a link a
    mutator planted beside the record is never written through."""
    if isinstance(held, Mark):
        held.put(path)
    elif isinstance(held, bytes):
        atomic.write_bytes(path, held, durable=False)
    else:
        held.file.seek(0)
        atomic.write_chunks(path, iter(lambda: held.file.read(CHUNK), b""), durable=False)


def _hold(path: Path) -> Held:
    """`_read`, but a large regular file is copied rather than read (see `Copy`)."""
    return _opened(path, lambda f, size: f.read() if size <= SMALL else Copy.of(f, path.parent))


def _read(path: Path) -> bytes | None:
    """A regular file's bytes; anything else there (a symlink, a folder, a pipe) reads as a change, never as its target's."""
    return _opened(path, lambda f, _: f.read())


def _opened(path: Path, use: Callable[[BinaryIO, int], T]) -> T | bytes | None:
    """`use(file, size)` on the regular file at `path`; a mark of what else is there (a symlink, a folder, a
    pipe or a socket: a change), None where nothing is. One open that follows no link and waits for no
    writer, then `fstat`: a named pipe a mutator left in a record's place held the daemon in its open until
    some process wrote to it, and a link swapped in after an `lstat` was read as its target."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the path is a symbolic link (O_NOFOLLOW)
            return b"\0symlink:" + os.fsencode(os.readlink(path))
        if exc.errno == errno.ENXIO:  # a socket
            return b"\0special"
        raise
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            with os.fdopen(fd, "rb", closefd=False) as f:
                return use(f, st.st_size)
        return b"\0folder" if stat.S_ISDIR(st.st_mode) else b"\0special"
    finally:
        os.close(fd)
