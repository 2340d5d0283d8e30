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
from collections.abc import Callable
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


class Listing:
    """The folders under `top` by path relative to it ("" is `top`), as of the last `update`."""

    def __init__(self, top: str, keep: Callable[[str, os.stat_result | Stat], bool]) -> None:
        self.top = top
        self.keep = keep  # (relative path, lstat) -> listed; only folders and regular files ever are; asked
        # once for a name and the file under it (the mirror's depends on the name alone)
        self.folders: dict[str, Folder] = {}

    def update(self, stamp_ns: int, dirty: set[str] | None = None) -> list[str]:
        """List again the folders that changed since the last update (all of them the first time);
        returns those whose entries changed, folders gone included (gone from `folders` too, with
        everything below them). `stamp_ns`: the change time of a file touched before this call.
        `dirty`: the only folders whose entries may have changed, when a watch says so
        (autoresearch.optimizer.experiment.folderwatch): those are looked at, and below them only the
        folders that are new, not every folder of the tree."""
        changed: list[str] = []
        stack: list[tuple[str, bool]] = [("", False)]  # (folder, looked at only if listed: it may be gone since)
        everywhere = dirty is None or "" not in self.folders
        if dirty is not None and not everywhere:
            unsettled = [r for r, f in self.folders.items() if not f.settled]
            stack = [(r, True) for r in sorted({*dirty, *unsettled}, key=_depth, reverse=True)]
        while stack:
            relative, listed_only = stack.pop()
            known = self.folders.get(relative)
            if known is None and listed_only:  # a folder new to its parent is reached from its parent
                continue
            folder = self._folder(relative, known, stamp_ns)
            if folder is None:
                if known is not None:
                    changed += self._forget(relative)
                continue
            if folder is not known:
                self.folders[relative] = folder
                if known is None or _differ(known.entries, folder.entries):
                    changed.append(relative)
                if known is not None:
                    gone = [
                        n for n, st in known.entries.items() if stat.S_ISDIR(st.st_mode) and n not in folder.entries
                    ]
                    for name in gone:
                        changed += self._forget(os.path.join(relative, name))
            for name, st in folder.entries.items():
                below = os.path.join(relative, name)
                if stat.S_ISDIR(st.st_mode) and (everywhere or _new(self.folders.get(below), st)):
                    stack.append((below, False))
        return changed

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

    def _forget(self, relative: str) -> list[str]:
        gone = self.below(relative)
        for r in gone:
            del self.folders[r]
        return gone


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
