"""The scope guard's copies of the contents it holds in memory, as records appended to one file.

The guard's copies on disk are read by one reader only: a start after a kill
-9 during a mutation (autoresearch.optimizer.guard.journal), since the daemon
itself restores from its memory (autoresearch.optimizer.guard.backups). A
file and a fan-out folder per copy cost a creation, a rename and an unlink
each cycle for what the daemon's own git rewrites (the index, `COMMIT_EDITMSG`,
`logs/HEAD`, the branch's log): 100-500 us of CPU each on a journaling
filesystem. Here they are records appended, before each arm, to one file
(`backups.pack`): a header line (`<oid> <size> <base oid or ->`) and its bytes.

A reflog only grows in git's normal use: a content that starts with the bytes
of the one it replaces at the same path is kept as that one's id and the new
tail (a delta), so a night's growing logs cost a line a cycle, not their
whole length again. A mutator that rewrites a log's head is still caught and
undone: what is compared is the whole content's id (the guard's manifest),
and a content that does not extend the one before is kept whole.

The daemon keeps an index of the pack's records for the whole night (a few records a cycle, every one
needed: a log's content is a chain of its appends). As a dict of `Record`s by hex id it held about 220
bytes a record for good, a fifth of the run's growth over a thousand cycles; `Index` holds 44 (the id's
20 bytes and three numbers in arrays), with no object per record.

Every record is checked against its id when it is read back, so a pack a
mutator tampered with is refused, never restored. The file is written whole
again (from memory: every content in it is held there too) on this guard's
first flush, when it is not as this guard left it (its inode and size), or
when what it holds outweighs the live contents twice over plus SLACK.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.guard.manifest import as_left, bytes_oid
from autoresearch.plumbing import atomic

NAME = "backups.pack"
SLACK = 8 << 20  # what may lie dead in the pack before it is written whole again
HEADER_MAX = 128  # an oid, a size and an oid, with spaces


@dataclass(frozen=True, slots=True)
class Record:
    offset: int  # where its bytes start in the pack
    size: int
    base: int  # NO_BASE: the bytes are the whole content; else they follow the bytes of the record in this slot


NO_BASE, LOST_BASE = -1, -2  # LOST_BASE: a record read from a file whose base has no record there
ID_BYTES = 20  # a blob id (SHA-1) as bytes
FILTER_BITS = 1 << 17  # `Index`'s filter: a lookup of an id it never held rarely scans the ids


class Index:
    """The pack's records by id, in arrays: each record's id as its 20 bytes, one after the other, and its
    offset, size and base's slot; no Python object per record. An id is found from the newest record back
    (the base a grown log asks for is the newest of its chain; a file's later record of an id is the one
    that counts), and a bit per id's hash in a fixed filter answers most lookups of a new content without a
    scan."""

    def __init__(self) -> None:
        self._ids = bytearray()
        self._filter = bytearray(FILTER_BITS // 8)
        self._offsets, self._sizes, self._bases = array("q"), array("q"), array("q")

    def __len__(self) -> int:
        return len(self._offsets)

    def slot(self, oid: str) -> int:
        """The newest record of this id, or -1."""
        key = _key(oid)
        if key is None or not self._filter[_bit(key) >> 3] & 1 << (_bit(key) & 7):
            return -1
        end = len(self._ids)
        while (at := self._ids.rfind(key, 0, end)) >= 0:
            if at % ID_BYTES == 0:
                return at // ID_BYTES
            end = at + ID_BYTES - 1  # a match that starts before this one
        return -1

    def base(self, oid: str) -> int:
        """What a record whose bytes follow this id's keeps as its base ("": none)."""
        if not oid:
            return NO_BASE
        slot = self.slot(oid)
        return LOST_BASE if slot < 0 else slot

    def add(self, oid: str, offset: int, size: int, base: int) -> None:
        """An id that is not one (a header a mutator forged) is not kept: no lookup could find it."""
        key = _key(oid)
        if key is None:
            return
        self._ids += key
        self._filter[_bit(key) >> 3] |= 1 << (_bit(key) & 7)
        self._offsets.append(offset)
        self._sizes.append(size)
        self._bases.append(base)

    def record(self, slot: int) -> Record:
        return Record(self._offsets[slot], self._sizes[slot], self._bases[slot])


def _key(oid: str) -> bytes | None:
    try:
        key = bytes.fromhex(oid)
    except ValueError:
        return None
    return key if len(key) == ID_BYTES else None


def _bit(key: bytes) -> int:
    return int.from_bytes(key[:4], "little") % FILTER_BITS


class Pack:
    """The records of one pack file, and those held for its next append."""

    def __init__(self, folder: Path):
        self.path = folder / NAME
        self.records: Index | None = None  # None: the file not read yet (a resumed guard's)
        self.pending: dict[str, tuple[bytes, str]] = {}  # oid -> (bytes, base), not yet on disk, in order
        self.left: tuple[int, int] | None = None  # (inode, size) after this guard's last write

    def has(self, oid: str) -> bool:
        """Whether the pack will have this content after the next flush (nothing is known of a file this
        guard has not written: its first flush writes it whole)."""
        return oid in self.pending or self.left is not None and self.records is not None and self.records.slot(oid) >= 0

    def add(self, oid: str, data: bytes, base: tuple[str, bytes] | None) -> None:
        """Hold `data` for the next flush; as a tail after `base` (an id and its bytes) when it extends it."""
        if self.has(oid):
            return
        if base is not None and self.has(base[0]) and len(data) > len(base[1]) and data.startswith(base[1]):
            self.pending[oid] = (data[len(base[1]) :], base[0])
        else:
            self.pending[oid] = (data, "")

    def flush(self, live: Mapping[str, bytes], live_bytes: int) -> None:
        """On disk before the journal arms: the pending records appended, or every live content written whole."""
        if self.left is not None and not as_left(self.path, self.left):
            self.left = None
        if not self.pending and self.left is not None:
            return
        added = sum(len(data) for data, _ in self.pending.values())
        if self.left is None or self.left[1] + added > 2 * live_bytes + SLACK:
            self._write_whole(live)
        else:
            self._append()
        self.pending.clear()

    def read(self, oid: str) -> bytes | None:
        """The content with this id, or None when the pack has no intact record of it."""
        records = self._records()
        parts: list[bytes] = []
        current = records.slot(oid)
        if current < 0:
            return None
        try:
            with open(self.path, "rb") as f:
                while current >= 0 and len(parts) <= len(records):
                    record = records.record(current)
                    f.seek(record.offset)
                    parts.append(f.read(record.size))
                    current = record.base
        except OSError:
            return None
        data = b"".join(reversed(parts))
        return data if current == NO_BASE and bytes_oid(data) == oid else None

    def _append(self) -> None:
        assert self.left is not None and self.records is not None
        size = self.left[1]
        self.left = None  # until the bytes are all there
        chunks = []
        for oid, (data, base) in self.pending.items():
            header = _header(oid, len(data), base)
            self.records.add(oid, size + len(header), len(data), self.records.base(base))
            chunks += [header, data]
            size += len(header) + len(data)
        rest = memoryview(b"".join(chunks))
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)  # open(..., "ab")'s
        try:  # without a buffered file object made and flushed for one write a cycle
            while rest:  # a short write (a full disk) raises on the next
                rest = rest[os.write(fd, rest) :]
            st = os.fstat(fd)
        finally:
            os.close(fd)
        self.left = (st.st_ino, st.st_size)

    def _write_whole(self, live: Mapping[str, bytes]) -> None:
        """Not synced, as no copy ever was: a kill leaves the page cache to the next start."""
        self.left = None
        records = Index()
        size = 0
        for oid, data in live.items():
            size += len(_header(oid, len(data), ""))
            records.add(oid, size, len(data), NO_BASE)
            size += len(data)
        chunks = (part for oid, data in live.items() for part in (_header(oid, len(data), ""), data))
        atomic.write_chunks(self.path, chunks, durable=False)
        st = os.stat(self.path)
        self.records, self.left = records, (st.st_ino, st.st_size)

    def _records(self) -> Index:
        """This guard's records; a resumed guard's are read from the file's headers (a torn last one, cut
        short by a kill during its append, left out)."""
        if self.records is None:
            self.records = _scan(self.path)
        return self.records


def _header(oid: str, size: int, base: str) -> bytes:
    return b"%s %d %s\n" % (oid.encode("ascii"), size, (base or "-").encode("ascii"))


def _scan(path: Path) -> Index:
    records = Index()
    try:
        with open(path, "rb") as f:
            end = os.fstat(f.fileno()).st_size
            while True:
                line = f.readline(HEADER_MAX)
                fields = line.split()
                if not line.endswith(b"\n") or len(fields) != 3 or not fields[1].isdigit():
                    return records
                offset, size = f.tell(), int(fields[1])
                if offset + size > end:
                    return records
                base = fields[2].decode("ascii", "replace")
                records.add(
                    fields[0].decode("ascii", "replace"), offset, size, records.base("" if base == "-" else base)
                )
                f.seek(offset + size)
    except OSError:
        return records
