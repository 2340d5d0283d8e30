"""git's object store under the scope guard: append-only, so only a file that disappears or is rewritten is a change.

A new object (the mutator's `git add`, or the user's own commit meanwhile) is
harmless and stays. But a mutator that runs `git stash drop` and then
`git gc --prune=now` deletes the blob of what the user had staged, and the
restored index would point at nothing. Object files are never written in
place by git (they are created read-only and replaced by rename), so each is
kept alive by a hard link under `<results_dir>/guard/git-objects/`, which
costs no disk while the original exists; a removed file is linked back.
Without hard links (another filesystem) the store is only watched, and a
removal is reported rather than repaired.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from autoresearch.optimizer.guard.manifest import Entry, walk

PRUNE_AFTER_S = 14 * 24 * 3600


def _entry(st: os.stat_result) -> Entry:
    """Size and inode: not ctime, which our own hard link moves, nor mtime, which git moves to
    "freshen" an object it was about to write again. (A same-size write into an object file, which
    git never does, goes unseen.)"""
    sig = (st.st_size, st.st_ino)
    return Entry("object", 0, ":".join(map(str, sig)), st.st_size, sig)


class ObjectFiles:
    def __init__(self, objects_dir: str, guard_dir: Path):
        self.root = objects_dir
        self.links = guard_dir / "git-objects"
        self.files: dict[str, Entry] = {}
        self.by_dir: dict[str, set[str]] = {}
        self.made: set[Path] = set()  # link folders known to exist

    def open(self) -> None:
        for path, entry in self._current(None).items():
            self._keep(path, entry)
        self._sweep()

    def _current(self, dirty: set[str] | None) -> dict[str, Entry]:
        tops = [self.root] if dirty is None else sorted(dirty)
        found = {}
        for top in tops:
            for path, st in walk(top, lambda p: False):
                if not os.path.isdir(path):
                    found[path] = _entry(st)
        return found

    def covers(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + os.sep)

    def look(self, dirty: set[str] | None) -> list[tuple[str, Entry, Entry | None]]:
        """Object files removed or rewritten since the last look, as (path, before, after), among the dirty
        paths (None: all); new ones are kept."""
        current = self._current(dirty)
        if dirty is None:
            concerned = set(self.files)
        else:  # a dirty file, or every file of a dirty folder (the store is two levels deep)
            concerned = {p for p in dirty if p in self.files}
            concerned.update(p for d in dirty for p in self.by_dir.get(d, ()))
        for path, entry in current.items():
            if path not in self.files:
                self._keep(path, entry)
        return [(p, self.files[p], current.get(p)) for p in sorted(concerned) if current.get(p) != self.files[p]]

    def adopt(self, path: str, after: Entry | None) -> None:
        """Take a removal or rewrite as the new state (made between mutations: the user's own gc)."""
        self._link(path).unlink(missing_ok=True)
        self._forget(path)
        if after is not None:
            self._keep(path, after)

    def put_back(self, path: str, before: Entry) -> bool:
        link = self._link(path)
        try:
            if _entry(os.lstat(link)) != before:  # not the same file any more
                return False
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + ".autoresearch-restore"
            os.link(link, tmp)
            os.replace(tmp, path)
        except OSError:
            return False
        self.files[path] = _entry(os.lstat(path))
        return True

    def _sweep(self) -> None:
        """Links to objects gone for longer than git's own prune delay are no one's any more."""
        cutoff = time.time() - PRUNE_AFTER_S
        for link, st in list(walk(str(self.links), lambda p: False)):
            original = os.path.join(self.root, os.path.relpath(link, self.links))
            if not os.path.isdir(link) and original not in self.files and st.st_ctime < cutoff:
                os.unlink(link)

    def _link(self, path: str) -> Path:
        return self.links / os.path.relpath(path, self.root)

    def _forget(self, path: str) -> None:
        if self.files.pop(path, None) is not None:
            self.by_dir[os.path.dirname(path)].discard(path)

    def _keep(self, path: str, entry: Entry) -> None:
        self.files[path] = entry
        self.by_dir.setdefault(os.path.dirname(path), set()).add(path)
        link = self._link(path)
        try:
            if link.parent not in self.made:
                link.parent.mkdir(parents=True, exist_ok=True)
                self.made.add(link.parent)
            try:
                os.link(path, link)
            except FileExistsError:  # from an earlier run: the same object, or a stale one
                link.unlink()
                os.link(path, link)
        except OSError:  # another filesystem, or gone already: watched only
            pass
