"""A list kept on disk rather than in the daemon's memory: a night-long list that grows by a few items a cycle.

The daemon runs all night, and whatever it keeps for each cycle is kept for good: a list of a thousand
small objects is a few hundred KiB of Python's heap that never shrinks back, and the free memory around
them stays pinned too (bench/heap_probe.py). A `Spilled` list keeps each item `marshal`led in an
unlinked file beside the data it was read from (the same disk, never a tmpfs that would hold it in
memory again) and only where it ends in memory (eight bytes); an item is made again from its bytes each
time it is read, so a reader holds one at a time. Items are appended as what `marshal` writes (tuples,
dicts, strings, numbers, None and booleans), which it reads back exactly: a float's bits, a bool as a
bool. Without a folder (a command's short-lived list) the bytes are kept in memory, still compact.
"""

from __future__ import annotations

import marshal
import os
import tempfile
from array import array
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar, cast, overload

T = TypeVar("T")

# marshal's format 2: floats as their bits, and no string marked as interned. Format 3 on marks each string
# that was interned when written (pathlib interns every part of a path: each run's name), and every read
# interns it again, into the interpreter's one table of interned strings; the item read is dropped and its
# strings die, leaving a dead slot for each. A pass over a long history left one per row, several passes a
# cycle: the table (1 MiB at 22,000 strings) was built again every few cycles, at times at twice its size,
# a 2 MiB block that stayed (bench/heap_probe.py --every 10).
_VERSION = 2


class Spilled(Sequence[T], Generic[T]):
    """An append-only list of items, appended as the plain values `marshal` writes and made again from them
    (`unpack`) when read."""

    def __init__(self, folder: Path | None, unpack: Callable[[object], T]):
        self.folder, self._unpack = folder, unpack
        self._fd = -1
        self._memory = bytearray()  # the bytes, when there is no folder
        self._size = 0  # where the next item starts
        self._bounds = array("q", [0])  # where the first item starts, and where each ends

    def append(self, values: object) -> None:
        """Bytes once written are never written over: an item read stays what it was."""
        data = marshal.dumps(cast(Any, values), _VERSION)  # what it cannot write raises ValueError
        if self.folder is None:
            self._memory += data
        else:
            if self._fd < 0:
                self._fd = _unlinked(self.folder)
            os.pwrite(self._fd, data, self._size)
        self._size += len(data)
        self._bounds.append(self._size)

    def clear(self) -> None:
        """Start the list again (the bytes written stay in the file until it is closed)."""
        self._bounds = array("q", [self._size])

    def close(self) -> None:
        """Drop every item and the file."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._memory, self._size, self._bounds = bytearray(), 0, array("q", [0])

    def __len__(self) -> int:
        return len(self._bounds) - 1

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        start, end = self._bounds[index], self._bounds[index + 1]
        if self.folder is None:
            return self._unpack(marshal.loads(self._memory[start:end]))
        return self._unpack(marshal.loads(os.pread(self._fd, end - start, start)))

    def __iter__(self) -> Iterator[T]:
        """Every item, from one read of their bytes (a read per item cost more than the items)."""
        bounds = self._bounds  # (an item appended meanwhile, or a `clear`, leaves this read as it began)
        count = len(bounds) - 1
        first, last = bounds[0], bounds[count]
        if self.folder is None:  # a copy: a view would stop the list growing while a reader is suspended
            data = memoryview(bytes(self._memory[first:last]))
        else:
            data = memoryview(os.pread(self._fd, last - first, first) if last > first else b"")
        with data:
            for i in range(count):
                yield self._unpack(marshal.loads(data[bounds[i] - first : bounds[i + 1] - first]))

    def __reversed__(self) -> Iterator[T]:
        for i in range(len(self) - 1, -1, -1):
            yield self[i]


def _unlinked(folder: Path) -> int:
    """A file no one else sees and the system removes when it is closed (or the process ends)."""
    try:
        return os.open(folder, os.O_TMPFILE | os.O_RDWR, 0o600)
    except (AttributeError, OSError):  # no O_TMPFILE here (another system, another filesystem)
        fd, name = tempfile.mkstemp(dir=folder, prefix=".spill-")
        os.unlink(name)
        return fd


K = TypeVar("K")


class ByPlace(Generic[K, T]):
    """What the live page made for each line, by the line's place in the night, with the key it was made
    under: on disk (a `Spilled` list in `folder`), eight bytes a place in memory. A value asked for under
    another key (its inputs changed) is not returned: the caller makes it again and `put`s it."""

    def __init__(self, folder: Path | None, unpack: Callable[[object], tuple[K, T]]):
        self._kept: Spilled[tuple[K, T]] = Spilled(folder, unpack)
        self._at = array("q")  # per place: its item in `_kept`, or -1

    def get(self, place: int, key: K) -> T | None:
        if place < len(self._at) and self._at[place] >= 0:
            kept_key, value = self._kept[self._at[place]]
            if kept_key == key:
                return value
        return None

    def put(self, place: int, key: K, value: T) -> None:
        """Appended, never written over (see `Spilled.append`): the place now names the new item."""
        if len(self._at) <= place:
            self._at.extend([-1] * (place + 1 - len(self._at)))
        self._at[place] = len(self._kept)
        self._kept.append((key, value))

    def close(self) -> None:
        self._kept.close()
        self._at = array("q")
