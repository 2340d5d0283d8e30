"""iterations.jsonl's lines as the daemon appended them, kept where a mutator does not reach and that outlives the daemon.

Each line the daemon appends goes first to a copy in the experiment's vault
(autoresearch.optimizer.experiment.vault: under git's folder, where no
`git clean` goes and the sandbox hides), then to iterations.jsonl. While the
daemon lives, a mutation's change to the file is told by its status (inode,
size, modification and change times: the change time no process of the user
can set back) and, where that moved, by a running SHA-256 of the daemon's
appends held in memory, and it is put back from the copy (trusted.py). A kill
between the two appends leaves the copy one line ahead; a kill during a
mutation leaves whatever the mutator did to the file: the next start (`repair`)
puts back what the copy holds, the damaged file saved in full first.

What this protects: the history against a mutator (or a process it left behind)
that cuts, rewrites, appends to or deletes iterations.jsonl, with the daemon
alive or killed. What it does not: a process of the same user that seeks out the
vault and rewrites the copy and the file alike while the daemon is dead (no
secret survives the daemon to tell them apart); while it lives, a copy changed
too is told by the digest and repaired from the file, or, both changed, the
start refuses (exit 50) rather than trust either.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from autoresearch.plumbing import atomic, faults
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration

if TYPE_CHECKING:
    from hashlib import _Hash as Hash

CHUNK = 64 * 1024  # what a comparison or a copy reads at a time: memory never grows with the night

Status = tuple[int, int, int, int, int]  # device, inode, size, modification and change times (ns)


def status(path: Path) -> Status | None:
    try:
        s = os.lstat(path)
    except FileNotFoundError:
        return None
    return (s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns)


def _of(s: os.stat_result) -> Status:
    return (s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns)


@dataclass(frozen=True)
class Mark:
    """What the ledger held when a mutation began: trusted.py's record of iterations.jsonl."""

    ledger: Ledger
    size: int
    digest: bytes

    def same_as(self, path: Path) -> bool:
        """Whether `path` holds the daemon's lines; the copy, if changed meanwhile, is made again from it.
        Where neither holds them, raised before anything is moved."""
        held = self.ledger.holds(path, self)
        self.ledger.check_copy(self, path if held else None)
        if not held:
            with self.ledger.copy.open("rb") as source:
                self._require(_digest(source, self.size))
        return held

    def put(self, path: Path) -> None:
        """Put the daemon's lines at `path` (whole, through a temporary file: atomic.write_chunks), from the
        copy, which must still be them: raised, nothing at `path` changed, where it is not."""
        with self.ledger.copy.open("rb") as source:
            atomic.write_chunks(path, self._checked(source), durable=False)

    def _checked(self, source: BinaryIO) -> Iterator[bytes]:
        """`source`'s first `size` bytes; raised after the last where they are not the daemon's."""
        feed = _Feed(source, hashlib.sha256(), self.size)
        yield from feed
        self._require(feed.digest.digest())

    def _require(self, digest: bytes) -> None:
        if digest != self.digest:
            raise IntegrityError(
                f"{self.ledger.file} and its copy {self.ledger.copy} were both changed during the mutation: "
                "neither can be trusted; put back the history, or use --restart"
            )


class Ledger:
    """The daemon's appends to `file` (iterations.jsonl), copied to `copy` first; how many bytes, their
    running digest, and the status each had after the last append (or the last look that found them whole)."""

    def __init__(self, file: Path, copy: Path) -> None:
        self.file, self.copy = file, copy
        self.size, self._hash = 0, hashlib.sha256()
        self._seen: Status | None = None
        self._copy_seen: Status | None = None

    @classmethod
    def open(cls, file: Path, copy: Path) -> Ledger:
        """The ledger of a file `repair` has settled: the copy made again from it (one file read, and one
        write where it differs), so the lines the start wrote (reconcile's) and those another command
        appended are in it, and a file gone (the user's, or --restart's, new experiment) leaves none."""
        ledger = cls(file, copy)
        copy.parent.mkdir(parents=True, exist_ok=True)
        if not file.is_file() or file.is_symlink():
            copy.unlink(missing_ok=True)
            return ledger
        whole = _whole(file)  # a torn last line (a power cut) is not the daemon's: the next append cuts it
        same, _, copy_size = _common(file, copy) if _regular(copy) else (0, 0, -1)
        if same == copy_size == whole and not os.path.samefile(file, copy):  # the copy holds the file's lines
            with file.open("rb") as source:
                ledger.size = _Feed(source, ledger._hash, whole).drain()
        else:
            with file.open("rb") as source:
                feed = _Feed(source, ledger._hash, whole)
                atomic.write_chunks(copy, feed)
            ledger.size = feed.size
        ledger._seen, ledger._copy_seen = status(file), status(copy)
        return ledger

    def append(self, record: Iteration) -> None:
        """The copy first: a kill between the two leaves a line the next start puts back, never a line of
        the file's the copy lacks (which it would take for a mutator's). The copy has no fsync of its own
        (4 ms of wall time a cycle here): on ext4 (data=ordered, the default) the file's fsync commits the
        copy's write made before it. A filesystem without that order may lose the copy's last line on a power
        cut: a start keeps it from the file, but after a cut during a mutation, when it drops it (saved)."""
        line = iterations.encoded(record)
        copied = iterations.append_line(self.copy, line, sync=False)
        faults.point("between-appends")
        self._seen = _of(iterations.append_line(self.file, line))
        self._copy_seen = _of(copied)
        self.size += len(line)
        self._hash.update(line)

    def mark(self) -> Mark:
        return Mark(self, self.size, self._hash.digest())

    def holds(self, path: Path, mark: Mark) -> bool:
        """Its status unchanged since the last look, or (read once) the daemon's bytes, digest and length."""
        now = status(path)
        if now is not None and now == self._seen:
            return True
        if now is None or now[2] != mark.size or path.is_symlink() or now[:2] == (status(self.copy) or ())[:2]:
            return False  # a second name of the copy too: every append would go twice to the one file
        with path.open("rb") as f:
            if _digest(f, mark.size) != mark.digest:
                return False
        self._seen = now
        return True

    def check_copy(self, mark: Mark, whole: Path | None) -> None:
        """The copy changed since the last look (a mutator without the sandbox reaches it too): made again
        from `whole`, a file that holds the daemon's lines, where it no longer holds them."""
        now = status(self.copy)
        if now is not None and now == self._copy_seen:
            return
        if now is not None and now[2] >= mark.size:
            with self.copy.open("rb") as f:
                if _digest(f, mark.size) == mark.digest:
                    self._copy_seen = now
                    return
        if whole is not None:
            with whole.open("rb") as source:
                atomic.write_chunks(self.copy, _Feed(source, hashlib.sha256(), mark.size), durable=False)
            self._copy_seen = status(self.copy)


def append_beside(file: Path, copy: Path, record: Iteration) -> None:
    """A line of a command's own (rollback's, with no daemon running): in the copy too where the copy holds
    the file's lines, so that a start after a kill during a mutation never takes it for the mutator's."""
    line = iterations.encoded(record)
    if _regular(copy) and len({*_common(file, copy)}) == 1:
        iterations.append_line(copy, line, sync=False)
    iterations.append_line(file, line)


@dataclass(frozen=True)
class Repair:
    """What a start put back: the file's lines added from the copy, or the file replaced by it (then
    `saved` holds the file as it was)."""

    added: int  # bytes appended from the copy
    saved: Path | None
    kept: Path | None = None  # the copy, moved aside: the file was removed while no mutation ran (a new experiment)


def repair(file: Path, copy: Path, foreign_tail: bool) -> Repair | None:
    """Put back what the copy holds that the file lost. A file that is a start of the copy gets the rest
    (a kill between the two appends, or a mutator's cut of whole lines); any other difference is saved
    beside it, then the file is replaced by the copy. Lines past the copy's end are another writer's: a
    command's (rollback, adopt), a start's, kept; but `foreign_tail` (a mutation was cut short by the kill:
    nothing of the daemon's was appended since the copy) they are the mutator's, and go. Nothing to do
    without a copy (an experiment of an older version) or, unless a mutation was cut short, without the file
    (removed by the user: a new experiment; but the copy is kept aside, for it may have been a process a mutator
    left behind, or `git clean -ffdx`, as well)."""
    if not _regular(copy):  # none, or a link a mutator put there (to another experiment's copy): never read
        return None
    if not os.path.lexists(file):
        if not foreign_tail:
            kept = copy.with_name(f"{copy.name}.removed-{_now()}")
            os.replace(copy, kept)
            return Repair(0, None, kept)
        _replace(file, copy)
        return Repair(copy.stat().st_size, None)
    same, file_size, copy_size = _common(file, copy)
    if same == file_size == copy_size:
        return None
    if same == file_size and not file.is_symlink():  # the file is a start of the copy
        with copy.open("rb") as source, file.open("ab") as out:
            source.seek(same)
            while chunk := source.read(CHUNK):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        return Repair(copy_size - same, None)
    if same == copy_size and not foreign_tail and _ends_a_line(file):
        return None  # another writer's whole lines after ours: `Ledger.open` copies them
    saved = file.with_name(f"{file.name}.damaged-{_now()}")
    os.replace(file, saved)
    _replace(file, copy)
    return Repair(copy_size, saved)


def _regular(path: Path) -> bool:
    """A regular file itself, not a symbolic link to one."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%f")


def _replace(file: Path, copy: Path) -> None:
    with copy.open("rb") as source:
        atomic.write_chunks(file, _Feed(source, hashlib.sha256()))


def _common(file: Path, copy: Path) -> tuple[int, int, int]:
    """(how many first bytes the two share, the file's size, the copy's size); a symlink shares none."""
    if file.is_symlink() or not file.is_file():
        return 0, -1, copy.stat().st_size
    same = 0
    with file.open("rb") as a, copy.open("rb") as b:
        sizes = os.fstat(a.fileno()).st_size, os.fstat(b.fileno()).st_size
        while (x := a.read(CHUNK)) and (y := b.read(CHUNK)):
            n = _shared(x, y)
            same += n
            if n < CHUNK:
                break
    return same, *sizes


def _shared(x: bytes, y: bytes) -> int:
    """How many first bytes `x` and `y` share (halving: a byte at a time costs a millisecond a chunk)."""
    low, high = 0, min(len(x), len(y))
    while low < high:
        mid = (low + high + 1) // 2
        if x[low:mid] == y[low:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _ends_a_line(file: Path) -> bool:
    with file.open("rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return True
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


class _Feed:
    """The first `limit` bytes of `source` (all where None), a chunk at a time, fed to `digest` on the way;
    `size`: how many so far. Given to atomic.write_chunks, the copy is written and hashed in one read."""

    def __init__(self, source: BinaryIO, digest: Hash, limit: int | None = None) -> None:
        self.source, self.digest, self.limit, self.size = source, digest, limit, 0

    def __iter__(self) -> Iterator[bytes]:
        limit = self.limit
        while (limit is None or self.size < limit) and (
            chunk := self.source.read(CHUNK if limit is None else min(CHUNK, limit - self.size))
        ):
            self.digest.update(chunk)
            self.size += len(chunk)
            yield chunk

    def drain(self) -> int:
        """Read to the end (or the limit) and hashed, nothing written: how many bytes."""
        for _ in self:
            pass
        return self.size


def _whole(file: Path) -> int:
    """How many first bytes of `file` are whole lines (up to and with its last newline)."""
    with file.open("rb") as f:
        at = f.seek(0, os.SEEK_END)
        while at > 0:
            start = max(0, at - CHUNK)
            f.seek(start)
            if (newline := f.read(at - start).rfind(b"\n")) >= 0:
                return start + newline + 1
            at = start
    return 0


def _digest(source: BinaryIO, size: int) -> bytes:
    """The SHA-256 of the first `size` bytes of `source` (fewer where it ends first)."""
    feed = _Feed(source, hashlib.sha256(), size)
    feed.drain()
    return feed.digest.digest()
