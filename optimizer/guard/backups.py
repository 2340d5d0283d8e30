"""The bytes the scope guard may have to put back: every guarded file's content as it was before the mutation.

Bytes the index names when the guard opens (every committed or staged file)
are read back from git's object store. Every other content is kept on disk
under the guard's folder (in the vault under git's own folder, see
autoresearch.optimizer.experiment.vault, where no `git clean -x` reaches it),
so that a start after a kill -9 during a mutation can still put the user's
untracked and ignored files back (see autoresearch.optimizer.guard.journal).
Small contents are kept in the daemon's memory (up to MEMORY in all), where
no mutator can reach them at all, and on disk as records of one file
(autoresearch.optimizer.guard.pack), written before each arm; the rest as a
plain copy each, named by its git blob id (`objects/`). Each distinct content
is kept once, and dropped when no guarded file holds it any more. A copy is
checked against its id before it is used, so a backup the mutator tampered
with is refused, never restored. Every copy is a full one, large files
included: a hard link would cost no disk, but a mutator that writes into the
file in place would change the only other copy too, and the user's bytes
would be gone.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.optimizer.guard.manifest import Entry, blob_oid, bytes_oid, opened
from autoresearch.optimizer.guard.pack import Pack
from autoresearch.plumbing import atomic, inplace

if TYPE_CHECKING:
    from pygit2 import Odb

CHUNK = 1 << 20  # what a copy to disk reads at a time
SMALL = 8 << 20  # at most this size, kept in memory while the total allows
MEMORY = 128 << 20


class Backups:
    def __init__(self, root: Path, odb: Odb, staged: set[str]):
        self.root = root / "objects"  # the contents not held in memory, a file each
        self.pack = Pack(root)  # those held in memory
        self.odb = odb  # libgit2's object database
        self.staged = staged  # blob ids the index names: in the object database, so no copy needed
        self.refs: Counter[str] = Counter()
        self.memory: dict[str, bytes] = {}
        self.memory_bytes = 0

    def _path(self, oid: str) -> Path:
        return self.root / oid[:2] / oid[2:]

    def hold(self, path: str, entry: Entry, previous: Entry | None = None, data: bytes | None = None) -> None:
        """Make sure `entry`'s bytes (just read from `path`) can be put back later; `previous`: what `path`
        held until now (still held), which a grown log extends; `data`: the bytes `entry.oid` was made of,
        when the look kept them (autoresearch.optimizer.guard.manifest.Handed), not read again."""
        if entry.kind != "file" or entry.oid.startswith("unreadable:"):
            return
        self.refs[entry.oid] += 1
        if self.refs[entry.oid] > 1 or entry.oid in self.staged:
            return
        kept = self._keep_in_memory(path, entry, data)
        if kept is not None:
            before = None if previous is None else self.memory.get(previous.oid)
            self.pack.add(entry.oid, kept, None if before is None or previous is None else (previous.oid, before))
            return
        target = self._path(entry.oid)
        if target.exists():
            return
        if data is not None:  # the memory full: the bytes the look hashed, where the file may hold others by now
            atomic.write_bytes(target, data, durable=False)
            return
        try:  # through a temporary file of an unforeseeable name (atomic.write_chunks): no link is followed
            with opened(path) as source:
                atomic.write_chunks(target, iter(lambda: source.read(CHUNK), b""), durable=False)
        except FileNotFoundError:  # gone since it was read, or a FIFO or link in its place: its next event says so
            return

    def _keep_in_memory(self, path: str, entry: Entry, data: bytes | None) -> bytes | None:
        if entry.size > SMALL or self.memory_bytes + entry.size > MEMORY:
            return None
        if data is None:
            try:
                with opened(path) as f:
                    data = f.read(entry.size + 1)  # no more: one grown since is not this entry's bytes
            except OSError:
                return None
            if bytes_oid(data) != entry.oid:  # rewritten since it was hashed: its next event brings the new bytes
                return None
        self.memory[entry.oid] = data
        self.memory_bytes += len(data)
        return data

    def release(self, entry: Entry) -> None:
        if entry.kind != "file" or self.refs[entry.oid] == 0:
            return
        self.refs[entry.oid] -= 1
        if not self.refs[entry.oid]:
            del self.refs[entry.oid]
            data = self.memory.pop(entry.oid, None)
            if data is None:
                self._path(entry.oid).unlink(missing_ok=True)
            else:  # its record in the pack goes when the pack is next written whole
                self.memory_bytes -= len(data)

    def flush(self) -> None:
        """The copies of the contents held since the last flush on disk (before the journal arms)."""
        self.pack.flush(self.memory, self.memory_bytes)

    def sweep(self) -> None:
        """Remove the copies no guarded file holds any more, or that the pack holds now (left by an earlier
        run)."""
        if not self.root.is_dir():
            return
        for fan in self.root.iterdir():
            for item in fan.iterdir():
                oid = fan.name + item.name
                if oid not in self.refs or oid in self.memory:
                    item.unlink(missing_ok=True)

    def write_to(self, oid: str, dest: str) -> bool:
        """Write the bytes with this id to `dest`, a file made anew (never through a link a process the mutator
        left put at that name: see `inplace.anew`); False when no intact copy has them. A copy on disk goes file
        to file, so a large one is never held in memory."""
        data = self._held(oid)
        with os.fdopen(inplace.anew(dest), "wb") as out:
            if data is not None:
                out.write(data)
                return True
            try:
                with open(self._path(oid), "rb") as source:
                    shutil.copyfileobj(source, out)
            except OSError:
                pass
            else:
                out.flush()
                if blob_oid(dest, os.path.getsize(dest)) == oid:
                    return True
        Path(dest).unlink(missing_ok=True)
        return False

    def _held(self, oid: str) -> bytes | None:
        """The bytes with this id from memory, git or the pack (each checked against its id there)."""
        data = self.memory.get(oid)
        if data is None and oid in self.odb:
            data = self.odb.read(oid)[1]
        return self.pack.read(oid) if data is None else data

    def read(self, oid: str) -> bytes | None:
        """The bytes with this id, or None when neither git nor the copies have them intact."""
        data = self._held(oid)
        if data is not None:
            return data
        path = self._path(oid)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if bytes_oid(data) == oid else None
