"""Hard links to the experiment's files under git's folder, so that what a mutator deletes comes back whole.

Without the sandbox a command mutator's `git clean -ffdx` or `rm -rf .autoresearch`
removes the experiment's folder: its history (iterations.jsonl), the run
directories every later decision and `rollback` read, the log. Before each
mutation every file there is hard-linked under the vault (see
autoresearch.optimizer.experiment.vault), where git never cleans; after it, each
file and folder that is gone is linked back. A link costs no disk and is the
file itself: a log the daemon goes on appending to while it is deleted keeps
every line. Bytes changed in place are another matter: the records a decision
reads back are checked by content (autoresearch.optimizer.guard.trusted).

A command mutator in the sandbox never sees the results directory: its run keeps
no mirror (autoresearch.optimizer.experiment.session, `Session.mirroring`).

Left out are the files the daemon itself removes while a mutation runs (a
command's process-group file, an atomic write's temporary file, a pending
journal) and the parallel candidates' worktrees (git's, made and removed by
the daemon): linking one of those back would resurrect what is over.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from autoresearch.optimizer.experiment.folderwatch import FolderWatch
from autoresearch.optimizer.experiment.listing import Changes, Listing, Stat, identity, merge
from autoresearch.optimizer.gitrepo.candidates import FOLDER as CANDIDATES
from autoresearch.optimizer.guard.fswatch import Unavailable
from autoresearch.plumbing import trees
from autoresearch.plumbing.paths import META
from autoresearch.plumbing.process import PGID_SUFFIX

_PASSING_SUFFIXES = (".tmp", PGID_SUFFIX, ".autoresearch-restore")
_PASSING_NAMES = frozenset({"lock", "STOP", "pending-keep.json", "git-write.json", "version-command.json"})
_WORKTREES = os.path.join(META, CANDIDATES)


def passing(name: str) -> bool:
    """A file the daemon removes on its own (see the module's docstring)."""
    return name in _PASSING_NAMES or name.endswith(_PASSING_SUFFIXES)


class Mirror:
    """The experiment's folder `source` and its mirror `root` in the vault, each listed where it changed
    since the last look (autoresearch.optimizer.experiment.listing): a session keeps one, so that a
    refresh or a restore reads only the folders that changed, not every run directory of the night, and
    where inotify names the entries that changed, only those."""

    def __init__(self, source: Path, root: Path, watched: bool = False) -> None:
        """`watched`: inotify says which folders changed (autoresearch.optimizer.experiment.folderwatch), for
        a mirror kept from cycle to cycle; without it every folder is `lstat`ed at each look."""
        self.source, self.root = source, root
        self._source = Listing(str(source), _kept)
        self._copy = Listing(str(root), _kept)
        self._busy: tuple[str, ...] = ()  # the folders left out at the last refresh (relative, with a slash)
        self._watch: FolderWatch | None = None
        if watched:
            try:
                self._watch = FolderWatch([str(source), str(root)], _unwatched(str(source)))
            except Unavailable:
                pass

    @property
    def read(self) -> int:
        """Entries read from disk by both listings so far: what a look costs."""
        return self._source.read + self._copy.read

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()

    def refresh(self, busy: tuple[Path, ...] = ()) -> bool:
        """Link every file of the experiment now (a file the daemon replaced since is linked anew) and
        drop what it no longer holds, but those under `busy`: the run directory of a cycle evaluated while
        the mutators run, whose files the eval makes and removes meanwhile. False when no hard link can be
        made here (another filesystem)."""
        source = str(self.source)
        skipped = tuple(os.path.relpath(b, source) + os.sep for b in busy if b.is_relative_to(self.source))
        everything = any(self.source.is_relative_to(b) for b in busy)
        changed = self._update()
        for prefix in {*skipped, *self._busy}:  # left out now or before: looked at again
            folder = prefix.rstrip(os.sep)
            merge(changed, os.path.dirname(folder), {os.path.basename(folder)})
            for below in [*self._source.below(folder), *self._copy.below(folder)]:
                changed[below] = None
        self._busy = skipped
        if everything:  # the whole mirror dropped, from its top
            changed[""] = None
        done: set[str] = set()
        for relative in sorted(changed, key=_depth):
            if not self._link(relative, changed[relative], skipped, everything, done):
                return False
        if everything:  # nothing of it is mirrored now: the next refresh looks at all of it
            self._source = Listing(source, _kept)
        return True

    def restore(self) -> list[Path]:
        """Link back every mirrored file and folder that is gone from the experiment; returns them."""
        if not self.root.is_dir():  # never mirrored
            return []
        changed = self._update()
        back: list[Path] = []
        for relative in sorted(changed, key=_depth):
            self._put_back(relative, changed[relative], back)
        return back

    def _update(self) -> Changes:
        """Both listings brought up to date: the names whose entries changed, by folder (relative)."""
        dirty = self._watch.dirty() if self._watch is not None else None
        stamp = self._stamp()
        changed = self._source.update(stamp, _under(dirty, str(self.source)))
        for relative, names in self._copy.update(stamp, _under(dirty, str(self.root))).items():
            merge(changed, relative, names)
        return changed

    def _link(
        self, relative: str, names: set[str] | None, skipped: tuple[str, ...], everything: bool, done: set[str]
    ) -> bool:
        """The entries `names` (None: all) of the mirror's folder `relative` made to hold what the
        experiment's hold now, and so every folder whose copy it makes (those are new to the mirror, changed
        or not, and made whole); `done`: those made so far."""
        if relative in done:
            return True
        done.add(relative)
        listed = self._source.look(relative, names)
        if listed is None and relative:  # gone, or no longer a folder: its parent's copy was dropped
            return True
        source = os.path.join(str(self.source), relative)
        copies = os.path.join(str(self.root), relative)
        held = self._copy.look(relative, names) or {}
        wanted = {}
        if listed is not None and not everything:
            wanted = {n: st for n, st in listed.items() if not (os.path.join(relative, n) + os.sep).startswith(skipped)}
        for name, st in wanted.items():
            copy, was = os.path.join(copies, name), held.get(name)
            folder = stat.S_ISDIR(st.st_mode)
            if was is not None and (stat.S_ISDIR(was.st_mode) if folder else identity(was) == identity(st)):
                continue  # a folder there already (its own, never the same inode), or a link to this very file
            if was is not None and (folder or stat.S_ISDIR(was.st_mode)):  # a file is replaced by its new link
                _drop(copy, was)
            if folder:
                _make_folder(copy)
                if not self._link(os.path.join(relative, name), None, skipped, everything, done):
                    return False
            elif not _link_anew(os.path.join(source, name), copy, was is None):
                return False
        for name in held.keys() - wanted.keys():
            _drop(os.path.join(copies, name), held[name])
        return True

    def _put_back(self, relative: str, names: set[str] | None, back: list[Path]) -> None:
        """Link back what the mirror's folder `relative` holds under `names` (None: all) and the
        experiment's no longer does."""
        held = self._copy.look(relative, names)
        if held is None:
            return
        target = os.path.join(str(self.source), relative)
        for name, st in held.items():
            path = os.path.join(target, name)
            if os.path.lexists(path):
                continue
            if stat.S_ISDIR(st.st_mode):
                os.makedirs(path, exist_ok=True)
                back.append(Path(path))
                self._put_back(os.path.join(relative, name), None, back)
            else:
                os.makedirs(target, exist_ok=True)
                os.link(os.path.join(str(self.root), relative, name), path)
                back.append(Path(path))

    def _stamp(self) -> int:
        """The file system's "now": the change time of a file touched beside the mirror (see the
        listing's docstring)."""
        path = os.path.join(os.path.dirname(self.root), "mirror.stamp")
        try:
            os.utime(path)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb"):
                pass
        return os.stat(path).st_ctime_ns


def _kept(relative: str, st: os.stat_result | Stat) -> bool:
    """Mirrored: all but the files passing, the mirror's own temporary files and the worktrees."""
    name = os.path.basename(relative)
    return not (passing(name) or name.endswith(".mirror") or relative == _WORKTREES)


def _unwatched(source: str) -> Callable[[str], bool]:
    worktrees = os.path.join(source, _WORKTREES)
    return lambda path: path == worktrees


def _under(dirty: dict[str, set[str]] | None, top: str) -> dict[str, set[str]] | None:
    """The folders of `dirty` under `top`, relative to it, with their names."""
    if dirty is None:
        return None
    prefix = top + os.sep
    return {"" if d == top else d[len(prefix) :]: n for d, n in dirty.items() if d == top or d.startswith(prefix)}


def _depth(relative: str) -> tuple[int, str]:
    return (relative.count(os.sep) if relative else -1, relative)


def _drop(path: str, st: Stat) -> None:
    if stat.S_ISDIR(st.st_mode):
        trees.remove(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def _make_folder(path: str) -> None:
    """The folder `path` made, its parent nearly always there: the mirror's folders are made outermost first."""
    try:
        os.mkdir(path)
    except OSError:  # its parent missing (the mirror's top at its first refresh), or the folder made since listed
        os.makedirs(path, exist_ok=True)


def _link_anew(source: str, copy: str, new: bool) -> bool:
    """`copy` made a hard link to `source`, atomically; False when no hard link can be made here. A `new`
    copy (none there when listed) is linked at once, the others through a temporary link and a rename.
    The copy's folder is nearly always there (made before the files in it): it is made only when a link
    fails for want of it, not asked for before each link; so is a temporary link left by a refresh cut
    short removed only when it is in the way."""
    if new:
        try:
            os.link(source, copy)
            return True
        except FileExistsError:  # there since it was listed: replaced below
            pass
        except FileNotFoundError:
            return _missing(source, copy, new)
        except OSError:
            return False
    tmp = os.path.join(os.path.dirname(copy), ".link.mirror")  # not the name plus a suffix: no room near the limit
    try:
        os.link(source, tmp)
    except FileExistsError:
        os.unlink(tmp)
        return _link_anew(source, copy, False)
    except FileNotFoundError:
        return _missing(source, copy, new)
    except OSError:
        return False
    os.replace(tmp, copy)
    return True


def _missing(source: str, copy: str, new: bool) -> bool:
    """A link to `source` at `copy` failed for want of `source` (removed by the daemon since it was listed:
    nothing to link) or of the copy's folder (made, and the link tried again)."""
    folder = os.path.dirname(copy)
    if os.path.isdir(folder) or not os.path.lexists(source):
        return True
    _make_folder(folder)
    return _link_anew(source, copy, new)
