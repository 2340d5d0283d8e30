"""A tree's folders as last listed, listed again only where they changed: a walk that costs one `lstat` a
folder, not a `scandir` of every folder and a `stat` of every file.

The mirror of the experiment's files (autoresearch.optimizer.experiment.mirror) compares the experiment
with its mirror before and after every mutation. Read whole each time, that walk grew with the night
(every run directory so far, about eight entries a cycle) and became a large part of the loop's own
time (bench/loop_overhead.py).

A folder's entries change (one added, removed, or renamed over) only with its change time
(`st_ctime_ns`), which no process sets back: `touch -d` or `os.utime` move the modification time and set
the change time to now. So a folder whose inode and change time are those it had when it was listed
holds what it held then, unless it changed in the same tick of the file system's clock as the listing
(git calls such an index entry "racily clean"). A stamp touched before each walk gives the file system's
own "now": a folder whose change time is not strictly before it is listed again on the next walk, so no
change is missed, whatever the clock's granularity. A file changed in place keeps its inode: the mirror's
link is that file, and needs nothing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass


class Stat(int):
    """What the mirror reads of a listed entry (its mode, inode and device), packed in one int. The listing
    holds one for every file of the experiment (every run directory of the night), twice (the experiment
    and its mirror): a whole `os.stat_result`, with its nineteen fields, cost about 760 bytes a file with
    its name, a few KiB a cycle (bench/heap_probe.py)."""

    __slots__ = ()

    @classmethod
    def of(cls, st: os.stat_result) -> Stat:
        return cls(st.st_dev << 96 | st.st_ino << 32 | st.st_mode)

    @property
    def st_mode(self) -> int:
        return self & 0xFFFFFFFF

    @property
    def st_ino(self) -> int:
        return (self >> 32) & 0xFFFFFFFFFFFFFFFF

    @property
    def st_dev(self) -> int:
        return self >> 96


def small(st: os.stat_result | Stat) -> Stat:
    return st if isinstance(st, Stat) else Stat.of(st)


@dataclass(frozen=True)
class Folder:
    key: tuple[int, int]  # (inode, change time) when it was listed
    settled: bool  # changed strictly before the stamp taken before the listing: a later change moves `key`
    entries: dict[str, Stat]  # by name: its files and folders that `keep` keeps


Changes = dict[str, set[str] | None]  # by folder (relative): the names whose entries changed; None: any


def merge(changed: Changes, relative: str, names: set[str] | None) -> None:
    """`names` of the folder `relative` added to `changed` (None, any name, takes in every other)."""
    if relative in changed:
        held = changed[relative]
        changed[relative] = None if held is None or names is None else held | names
    else:
        changed[relative] = names


class Listing:
    """The folders under `top` by path relative to it ("" is `top`), as of the last `update`."""

    def __init__(self, top: str, keep: Callable[[str, os.stat_result | Stat], bool]) -> None:
        self.top = top
        self.keep = keep  # (relative path, lstat) -> listed; only folders and regular files ever are; asked
        # once for a name and the file under it (the mirror's depends on the name alone)
        self.folders: dict[str, Folder] = {}
        self.read = 0  # entries read from disk so far: what a look costs grows with it

    def update(self, stamp_ns: int, dirty: Mapping[str, Collection[str]] | None = None) -> Changes:
        """List again the folders that changed since the last update (all of them the first time);
        returns the names whose entries changed, by folder (None: any of them), folders gone included
        (gone from `folders` too, with everything below them). `stamp_ns`: the change time of a file
        touched before this call. `dirty`: the only names added, removed or renamed since, by folder,
        when a watch says so (autoresearch.optimizer.experiment.folderwatch): only those are read again,
        and the folders they name are listed whole, not every folder of the tree, nor every entry of a
        folder that grows by one a cycle."""
        changed: Changes = {}
        if dirty is None or "" not in self.folders:
            self._walk([("", False, False)], stamp_ns, True, changed)
            return changed
        whole: list[tuple[str, bool, bool]] = []
        for relative in sorted(dirty, key=_depth):
            known = self.folders.get(relative)
            if known is not None:  # else new to its parent (or gone with it): its parent's names say so
                self._named(relative, known, dirty[relative], stamp_ns, changed, whole)
        self._walk(whole[::-1], stamp_ns, False, changed)
        return changed

    def _walk(self, stack: list[tuple[str, bool, bool]], stamp_ns: int, everywhere: bool, changed: Changes) -> None:
        """List the folders of `stack` (folder, looked at only if listed, read whatever its key) and, below
        them, the folders that are new (all of them if `everywhere`) where they changed."""
        while stack:
            relative, listed_only, again = stack.pop()
            known = self.folders.get(relative)
            if known is None and listed_only:  # a folder new to its parent is reached from its parent
                continue
            folder = self._folder(relative, None if again else known, stamp_ns)
            if folder is None:
                if known is not None:
                    self._forget(relative, changed)
                continue
            if folder is not known:
                self.folders[relative] = folder
                if known is None or _differ(known.entries, folder.entries):
                    changed[relative] = None
                if known is not None:
                    gone = [
                        n for n, st in known.entries.items() if stat.S_ISDIR(st.st_mode) and n not in folder.entries
                    ]
                    for name in gone:
                        self._forget(os.path.join(relative, name), changed)
            for name, st in folder.entries.items():  # below one read whatever its key, every folder is too
                below = os.path.join(relative, name)
                if stat.S_ISDIR(st.st_mode) and (everywhere or again or _new(self.folders.get(below), st)):
                    stack.append((below, False, again))

    def _named(
        self,
        relative: str,
        known: Folder,
        names: Collection[str],
        stamp_ns: int,
        changed: Changes,
        whole: list[tuple[str, bool, bool]],
    ) -> None:
        """The entries `names` of the listed folder `relative` read again, each on its own; a folder among
        them (made, moved or made again there, perhaps before its watch began) is put on `whole`, to be
        listed whole. The folder itself gone or replaced: put there too, as listed only."""
        path = os.path.join(self.top, relative) if relative else self.top
        try:
            st = os.lstat(path)
        except OSError:
            st = None
        if st is None or not stat.S_ISDIR(st.st_mode) or st.st_ino != known.key[0]:
            whole.append((relative, True, True))
            return
        entries = known.entries
        for name in names:
            was, now = entries.get(name), self._entry(relative, name)
            if now is None:
                entries.pop(name, None)
            else:
                entries[name] = now
            if was is not None and stat.S_ISDIR(was.st_mode) and (now is None or identity(was) != identity(now)):
                self._forget(os.path.join(relative, name), changed)
            if now is not None and stat.S_ISDIR(now.st_mode):
                whole.append((os.path.join(relative, name), False, True))
        self.folders[relative] = Folder((st.st_ino, st.st_ctime_ns), st.st_ctime_ns < stamp_ns, entries)
        if names:  # each, changed or not as listed: the other tree may differ there (a link put in its place)
            merge(changed, relative, set(names))

    def _entry(self, relative: str, name: str) -> Stat | None:
        """What is listed under `name` in the folder `relative` now: None if nothing is."""
        try:
            st = os.lstat(os.path.join(self.top, relative, name))
        except OSError:
            return None
        self.read += 1
        kind = st.st_mode
        if (stat.S_ISDIR(kind) or stat.S_ISREG(kind)) and self.keep(os.path.join(relative, name), st):
            return small(st)
        return None

    def below(self, relative: str) -> list[str]:
        """`relative` and the folders listed under it, outermost first."""
        prefix = relative + os.sep if relative else ""
        found = [r for r in self.folders if r == relative or r.startswith(prefix)]
        return sorted(found, key=lambda r: (r.count(os.sep) if r else -1, r))

    def _folder(self, relative: str, known: Folder | None, stamp_ns: int) -> Folder | None:
        path = os.path.join(self.top, relative) if relative else self.top
        try:
            st = os.lstat(path)
        except OSError:  # gone
            return None
        if not stat.S_ISDIR(st.st_mode):
            return None
        key = (st.st_ino, st.st_ctime_ns)
        if known is not None and known.settled and known.key == key:
            return known
        entries: dict[str, Stat] = {}
        try:
            found = list(os.scandir(path))
        except OSError:  # gone since
            return None
        was = known.entries if known is not None else {}
        self.read += len(found)
        for entry in found:
            est: os.stat_result | Stat | None = was.get(entry.name)
            if est is not None and est.st_ino == entry.inode() and _same_kind(est, entry):
                entries[entry.name] = small(est)  # listed and kept before, and the same file: kept again unasked
                continue
            try:  # a new name, or another file under it: read (the folder's own run directories are not)
                est = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue
            kind = est.st_mode
            if (stat.S_ISDIR(kind) or stat.S_ISREG(kind)) and self.keep(os.path.join(relative, entry.name), est):
                entries[entry.name] = small(est)
        return Folder(key, st.st_ctime_ns < stamp_ns, entries)

    def _forget(self, relative: str, changed: Changes) -> None:
        for r in self.below(relative):
            del self.folders[r]
            changed[r] = None


def _depth(relative: str) -> int:
    return relative.count(os.sep) + 1 if relative else 0


def _new(known: Folder | None, st: os.stat_result | Stat) -> bool:
    """A folder not listed yet, or another folder under a listed one's name: listed whole."""
    return known is None or known.key[0] != st.st_ino


def _same_kind(st: os.stat_result | Stat, entry: os.DirEntry[str]) -> bool:
    """The kind scandir read (without a call of its own) is the kind listed before."""
    if entry.is_symlink():
        return False
    return stat.S_ISDIR(st.st_mode) == entry.is_dir(follow_symlinks=False) and stat.S_ISREG(
        st.st_mode
    ) == entry.is_file(follow_symlinks=False)


def _differ(old: dict[str, Stat], new: dict[str, Stat]) -> bool:
    if old.keys() != new.keys():
        return True
    return any(identity(old[n]) != identity(st) for n, st in new.items())


def identity(st: os.stat_result | Stat) -> tuple[int, int, bool]:
    """What the mirror's link depends on: which file (or folder) it is, not what it holds."""
    return st.st_dev, st.st_ino, stat.S_ISDIR(st.st_mode)
