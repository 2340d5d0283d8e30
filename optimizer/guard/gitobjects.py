"""git's object store under the scope guard: append-only, so only a file that disappears or is rewritten is a change.

A new object (the mutator's `git add`, or the user's own commit meanwhile) is
harmless and stays. But a mutator that runs `git stash drop` and then
`git gc --prune=now` deletes the blob of what the user had staged, and the
restored index would point at nothing. Object files are never written in
place by git (they are created read-only and replaced by rename), so each is
kept alive by a hard link under the guard's `git-objects/`, which costs no
disk while the original exists; a removed file is linked back. The links lie
flat in that one folder, named by the object's path with `/` written `%2F`:
git's 256 fan-out folders would each cost the guard a mkdir of its own (~180 us)
the first time an object lands there, most of them in a night's first hundred
cycles. Without hard links (another filesystem) the store is only watched, and
a removal is reported rather than repaired.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from autoresearch.optimizer.guard.manifest import Entry, walk
from autoresearch.plumbing.folders import within

PRUNE_AFTER_S = 14 * 24 * 3600


def _sig(st: os.stat_result) -> int:
    """Size and inode, in one int: not ctime, which our own hard link moves, nor mtime, which git moves to
    "freshen" an object it was about to write again. (A same-size write into an object file, which
    git never does, goes unseen.)"""
    return st.st_size << 64 | st.st_ino


def _entry(sig: int) -> Entry:
    size, ino = sig >> 64, sig & ((1 << 64) - 1)
    return Entry("object", 0, f"{size}:{ino}", size, (size, ino))


class ObjectFiles:
    """Every object file as the guard last saw it. A night adds a few objects a cycle, each held for good,
    so each is held small: a record in its folder's bytes (`_record`), 58 bytes, where a name in a dict
    and an int cost three times that."""

    def __init__(self, objects_dir: str, guard_dir: Path):
        self.root = objects_dir
        self.links = guard_dir / "git-objects"
        self.by_dir: dict[str, bytearray] = {}  # folder -> its files' records, one after the other

    def open(self) -> None:
        for path, sig in self._current(None).items():
            self._keep(path, sig)
        self._sweep()

    def _current(self, dirty: set[str] | None) -> dict[str, int]:
        tops = [self.root] if dirty is None else sorted(dirty)
        found = {}
        for top in tops:
            for path, st in walk(top, lambda p: False):
                if not os.path.isdir(path):
                    found[path] = _sig(st)
        return found

    def covers(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + os.sep)

    def look(self, dirty: set[str] | None) -> list[tuple[str, Entry, Entry | None]]:
        """Object files removed or rewritten since the last look, as (path, before, after), among the dirty
        paths (None: all); new ones are kept."""
        current = self._current(dirty)
        known = _Known(self.by_dir)
        folders = self.by_dir if dirty is None else dirty  # a dirty file, or every file of a dirty folder
        concerned = {p for p in dirty or () if known.sig(p) is not None}
        concerned.update(os.path.join(d, name) for d in folders for name in known.table(d))
        changed = []
        for path in sorted(concerned):
            before, after = known.sig(path), current.get(path)
            if before is not None and after != before:
                changed.append((path, _entry(before), None if after is None else _entry(after)))
        for path, sig in current.items():
            if known.sig(path) is None:
                self._keep(path, sig)
        return changed

    def adopt(self, path: str, after: Entry | None) -> None:
        """Take a removal or rewrite as the new state (made between mutations: the user's own gc)."""
        _unlink(self._link(path))
        self._forget(path)
        if after is not None:
            self._keep(path, after.size << 64 | after.sig[1])

    def put_back(self, path: str, before: Entry) -> bool:
        link = self._link(path)
        try:
            if _entry(_sig(os.lstat(link))) != before:  # not the same file any more
                return False
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + ".autoresearch-restore"
            os.link(link, tmp)
            os.replace(tmp, path)
        except OSError:
            return False
        self._remember(path, _sig(os.lstat(path)))
        return True

    def _sweep(self) -> None:
        """Links to objects gone for longer than git's own prune delay are no one's any more. A link in a
        folder of its own (as versions before the flat folder made them) goes to its place in the flat one."""
        cutoff = time.time() - PRUNE_AFTER_S
        known = _Known(self.by_dir)
        folders = []
        for link, st in list(walk(str(self.links), lambda p: False)):
            relative = os.path.relpath(link, self.links)
            if os.path.isdir(link):
                folders.append(link)
            elif os.sep in relative:
                _move(link, self._link(os.path.join(self.root, relative)))
            elif known.sig(os.path.join(self.root, _unflat(relative))) is None and st.st_ctime < cutoff:
                os.unlink(link)
        for folder in reversed(folders[1:]):  # the deepest first, the links folder itself kept
            try:
                os.rmdir(folder)
            except OSError:
                pass

    def _link(self, path: str) -> str:
        """A str, not a Path: pathlib interns every part of a path, and each link's name is new."""
        return os.path.join(self.links, _flat(os.path.relpath(path, self.root)))

    def _forget(self, path: str) -> None:
        folder, _, name = path.rpartition(os.sep)
        records = self.by_dir.get(folder)
        if records is None:
            return
        start = records.find(b"/" + os.fsencode(name) + b"\0")
        if start >= 0:
            end = records.find(b"/", start + 1)
            del records[start : len(records) if end < 0 else end]

    def _remember(self, path: str, sig: int) -> None:
        self._forget(path)
        folder, _, name = path.rpartition(os.sep)
        self.by_dir.setdefault(folder, bytearray()).extend(_record(name, sig))

    def _keep(self, path: str, sig: int) -> None:
        link = self._link(path)
        self._remember(path, sig)
        try:
            try:
                within(self.links, lambda: os.link(path, link))
            except FileExistsError:  # from an earlier run: the same object, or a stale one
                os.unlink(link)
                os.link(path, link)
        except OSError:  # another filesystem, or gone already: watched only
            pass


def _flat(relative: str) -> str:
    """A path under the object store as one name: `%` and `/` escaped (each `%` starts an escape)."""
    return relative.replace("%", "%25").replace(os.sep, "%2F")


def _unflat(name: str) -> str:
    return name.replace("%2F", os.sep).replace("%25", "%")


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _move(link: str, flat: str) -> None:
    """A link from a folder of its own to its flat name, unless one is there already (made at this open)."""
    try:
        os.link(link, flat)
    except FileExistsError:
        pass
    except OSError:
        return
    os.unlink(link)


def _record(name: str, sig: int) -> bytes:
    """One file in its folder's records: `/`, its name, NUL, its signature in hex. A name holds neither `/`
    nor NUL, nor does hex, so each `/` starts a record and a search for `/name\\0` finds that name alone."""
    return b"/%s\0%x" % (os.fsencode(name), sig)


class _Known:
    """The records of the folders one look reads, each parsed once into a table of its files' signatures."""

    def __init__(self, by_dir: dict[str, bytearray]):
        self.by_dir = by_dir
        self.tables: dict[str, dict[str, int]] = {}

    def table(self, folder: str) -> dict[str, int]:
        table = self.tables.get(folder)
        if table is None:
            records = bytes(self.by_dir.get(folder, b""))
            pairs = (item.split(b"\0") for item in records.split(b"/")[1:])
            table = self.tables[folder] = {os.fsdecode(name): int(sig, 16) for name, sig in pairs}
        return table

    def sig(self, path: str) -> int | None:
        folder, _, name = path.rpartition(os.sep)
        return self.table(folder).get(name)
