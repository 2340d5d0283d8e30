"""The bytes the scope guard may have to put back: every guarded file's content as it was before the mutation.

Bytes the index names when the guard opens (every committed or staged file)
are read back from git's object store. Other small contents are kept in the
daemon's memory (up to MEMORY in all), where no mutator can reach them and
where keeping the index, a ref or a reflog the daemon's own commit just
rewrote costs no disk write. The rest (larger untracked and ignored files) is
kept as plain copies named by their git blob id under
`<results_dir>/guard/objects/`. Each distinct content is kept once, and dropped
when no guarded file holds it any more. A copy is checked against its id
before it is used, so a backup the mutator tampered with is refused, never
restored. Files over LARGE are hard-linked rather than copied: no disk is
spent on a dataset or a model file, and a mutator that replaces one (the way
git, editors and package managers write) leaves the link intact; one that
writes into it in place changes both, which the check on restore reports.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

from autoresearch.optimizer.guard.manifest import Entry, bytes_oid

LARGE = 16 << 20
SMALL = 8 << 20  # at most this size, kept in memory while the total allows
MEMORY = 128 << 20


class Backups:
    def __init__(self, root: Path, odb, staged: set[str]):
        self.root = root / "objects"
        self.odb = odb  # libgit2's object database
        self.staged = staged  # blob ids the index names: in the object database, so no copy needed
        self.refs: Counter[str] = Counter()
        self.memory: dict[str, bytes] = {}
        self.memory_bytes = 0

    def _path(self, oid: str) -> Path:
        return self.root / oid[:2] / oid[2:]

    def hold(self, path: str, entry: Entry) -> None:
        """Make sure `entry`'s bytes (just read from `path`) can be put back later."""
        if entry.kind != "file" or entry.oid.startswith("unreadable:"):
            return
        self.refs[entry.oid] += 1
        if self.refs[entry.oid] > 1 or entry.oid in self.staged or self._keep_in_memory(path, entry):
            return
        target = self._path(entry.oid)
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        try:
            if entry.size > LARGE:
                os.link(path, tmp)
            else:
                shutil.copyfile(path, tmp)
        except OSError:
            shutil.copyfile(path, tmp)  # another filesystem: no hard link possible
        os.replace(tmp, target)

    def _keep_in_memory(self, path: str, entry: Entry) -> bool:
        if entry.size > SMALL or self.memory_bytes + entry.size > MEMORY:
            return False
        try:
            data = Path(path).read_bytes()
        except OSError:
            return False
        if bytes_oid(data) != entry.oid:  # rewritten since it was hashed: its next event brings the new bytes
            return False
        self.memory[entry.oid] = data
        self.memory_bytes += len(data)
        return True

    def release(self, entry: Entry) -> None:
        if entry.kind != "file" or self.refs[entry.oid] == 0:
            return
        self.refs[entry.oid] -= 1
        if not self.refs[entry.oid]:
            del self.refs[entry.oid]
            data = self.memory.pop(entry.oid, None)
            if data is None:
                self._path(entry.oid).unlink(missing_ok=True)
            else:
                self.memory_bytes -= len(data)

    def sweep(self) -> None:
        """Remove the copies no guarded file holds any more (left by an earlier run)."""
        if not self.root.is_dir():
            return
        for fan in self.root.iterdir():
            for item in fan.iterdir():
                if fan.name + item.name not in self.refs:
                    item.unlink(missing_ok=True)

    def read(self, oid: str) -> bytes | None:
        """The bytes with this id, or None when neither git nor the copies have them intact."""
        if oid in self.memory:
            return self.memory[oid]
        if oid in self.odb:
            return self.odb.read(oid)[1]
        path = self._path(oid)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if bytes_oid(data) == oid else None
