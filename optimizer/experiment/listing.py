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

Where inotify names the entries that changed (autoresearch.optimizer.experiment.folderwatch), even that
walk is too much: the top folder gains a run directory a cycle, and its listing an entry for every file
of each. Then a look reads only the names the events give, and the listing holds only what it listed at
the last look; a folder no event named holds what it held when it was last looked at, and is read from
disk when the mirror asks for it (`Listing.look`).
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
    """The folders under `top` by path relative to it ("" is `top`), as of the last `update`: all of them
    after a walk, only those listed by the last look after a watch's names."""

    def __init__(self, top: str, keep: Callable[[str, os.stat_result | Stat], bool]) -> None:
        self.top = top
        self.keep = keep  # (relative path, lstat) -> listed; only folders and regular files ever are; asked
        # once for a name and the file under it (the mirror's depends on the name alone)
        self.folders: dict[str, Folder] = {}
        self.listed = False  # walked whole once: from then on, a watch's names are enough
        self.read = 0  # entries read from disk so far: what a look costs grows with it

    def update(self, stamp_ns: int, dirty: Mapping[str, Collection[str]] | None = None) -> Changes:
        """List again the folders that changed since the last update (all of them the first time);
        returns the names whose entries changed, by folder (None: any of them), folders gone included
        (gone from `folders` too, with everything below them). `stamp_ns`: the change time of a file
        touched before this call.

        `dirty`: the only names added, removed or renamed since, by folder, when a watch says so
        (autoresearch.optimizer.experiment.folderwatch). Those are returned as they are (changed or not as
        listed: the other tree may differ there, a link put in a file's place), and only the
        folders they name are listed (whole, with every folder below them: made or moved there, perhaps
        before their watch began); `folders` then holds those alone, and `look` reads the others from
        disk when asked, so that neither the time of a look nor what the listing holds grows with the
        night (a run directory a cycle, each in the top folder)."""
        changed: Changes = {}
        if dirty is None or not self.listed:
            self._walk([""], stamp_ns, changed)
            self.listed = True
            return changed
        self.folders = {}  # what the last look listed: on disk as it was then, but where the watch names a change
        for relative in sorted(filter(self._reached, dirty), key=_depth):
            names = dirty[relative]
            merge(changed, relative, set(names))
            if relative not in self.folders:  # else listed whole below a folder its parent names
                self._walk(
                    [os.path.join(relative, n) for n in names if self._is_folder(relative, n)], stamp_ns, changed
                )
        return changed

    def look(self, relative: str, names: Collection[str] | None = None) -> dict[str, Stat] | None:
        """The entries of the folder `relative` under `names` (None: all of them) as listed, or read now
        where the last update did not list that folder (unchanged since an earlier look, what it holds now
        is what it held then); None when there is no such folder."""
        folder = self.folders.get(relative)
        if folder is None and names is not None:
            return self._named(relative, names)
        if folder is None:
            folder = self._folder(relative, None, 0)  # never settled: an update lists it again
            if folder is None:
                return None
            self.folders[relative] = folder
        entries = folder.entries
        return entries if names is None else {n: entries[n] for n in names if n in entries}

    def _named(self, relative: str, names: Collection[str]) -> dict[str, Stat] | None:
        """The entries `names` of the folder `relative` read now, each on its own."""
        try:
            if not stat.S_ISDIR(os.lstat(os.path.join(self.top, relative) if relative else self.top).st_mode):
                return None
        except OSError:
            return None
        found = {n: self._entry(relative, n) for n in names}
        return {n: st for n, st in found.items() if st is not None}

    def _walk(self, stack: list[str], stamp_ns: int, changed: Changes) -> None:
        """List the folders of `stack`, and every folder below them, where they changed since listed."""
        while stack:
            relative = stack.pop()
            known = self.folders.get(relative)
            folder = self._folder(relative, known, stamp_ns)
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
            stack += [os.path.join(relative, n) for n, st in folder.entries.items() if stat.S_ISDIR(st.st_mode)]

    def _reached(self, relative: str) -> bool:
        """A walk would reach the folder `relative`: neither it nor a folder above it is left out."""
        parts = relative.split(os.sep) if relative else []
        return all(self._is_folder(os.sep.join(parts[:n]), parts[n]) for n in range(len(parts)))

    def _is_folder(self, relative: str, name: str) -> bool:
        st = self._entry(relative, name)
        return st is not None and stat.S_ISDIR(st.st_mode)

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
