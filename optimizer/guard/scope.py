"""The mutator's scope guard: everything outside the artifact must look exactly as before the mutation.

Guarded is every path of the repository but the artifact and the results
directory: tracked, untracked and ignored files alike, and `.git/` (HEAD,
config, hooks, refs, info, the index, reflogs); its object store is guarded
apart, against removals only (autoresearch.optimizer.guard.gitobjects: a new object is harmless,
and one the user's concurrent commit wrote must stay). The result cache under the results
directory is guarded too: a mutator must not write results for its own
candidate. Left out are other experiments' branches and worktrees (another
daemon may commit to them at any time). Inside a directory artifact, every path
with a `.git` component is guarded too (`nested`): a mutator that writes
`<dir>/.git/config` makes git ignore that folder and can run a command on the
user's next `git status` there, and nothing else would ever remove it.

The guard keeps a manifest (path -> kind, mode, content id) in the daemon's
memory, where no mutator can reach it, and the bytes to put back (see
autoresearch.optimizer.guard.backups) in its folder under git's own (see
autoresearch.optimizer.experiment.vault), where no `git clean -x` reaches.
Before each mutation the manifest is written there too (`arm`, see
autoresearch.optimizer.guard.journal), so that a start after a kill -9
finishes the undo (`resume`). It is brought up to date before each mutation
(`settle`: whatever changed since, the daemon's own commit or the user's edits,
is the new "before") and compared after it (`changes`). Only paths that may
have changed are looked at: inotify says which (autoresearch.optimizer.guard.fswatch); without it
every path is stat-ed and only files whose signature moved are read again.

Whatever the mutation window changed is saved in full before it is undone
(`undo`): see autoresearch.optimizer.guard.rescue for where and how to restore it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

import pygit2

from autoresearch.mutators.gitnames import is_git_name
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo import indexfile
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard import journal
from autoresearch.optimizer.guard.backups import SMALL, Backups
from autoresearch.optimizer.guard.cachefolders import GROWN, CacheFolders
from autoresearch.optimizer.guard.cachefolders import KIND as COUNTED
from autoresearch.optimizer.guard.fswatch import Unavailable, Watcher
from autoresearch.optimizer.guard.gitobjects import ObjectFiles
from autoresearch.optimizer.guard.manifest import Entry, Handed, entry_of, walk
from autoresearch.optimizer.guard.reach import Change, Scope, scope_of
from autoresearch.plumbing import kinds, owned


class Guard:
    """Owned by the session: opened before the first mutation, `settle`d before each, compared after."""

    def __init__(self, ws: Workspace, results_dir: Path, cache_root: Path | None, folder: Path | None = None):
        """`folder`: the guard's own (its backups, its journal); the results directory's `guard/` if none."""
        self._setup(ws, scope_of(ws, results_dir, cache_root), folder or results_dir / "guard")

    def _setup(self, ws: Workspace, scope: Scope, folder: Path) -> None:
        self.ws = ws
        self.scope = scope
        self.folder = folder
        self.backups = Backups(folder, ws.lib.odb, _staged_blobs(ws))
        self.handed = Handed(SMALL, SMALL)  # what the state being settled was read as, for the backups
        self.sentinel_dir = folder / "watch"
        self.manifest: dict[str, Entry] = {}
        self.nested: dict[str, Entry] = {}  # the paths with a `.git` component inside a directory artifact
        self.watcher: Watcher | None = None
        self.objects = ObjectFiles(self.scope.objects, folder)
        self.cache = CacheFolders(scope.cache)  # the cache's entries, held by count (not in the manifest)
        self.journal = journal.Journal(folder)
        self.unjournaled: set[tuple[str, str]] = set()  # ("m" or "n", path): entries moved since the last arm

    @classmethod
    def resume(cls, ws: Workspace, folder: Path) -> tuple[Guard, Path] | None:
        """The guard of a mutation a kill cut short, as it was armed, and the run directory its changes are
        saved under; None when no mutation was under way. Its `changes` walk every path it guarded then
        (git's object files are not among them: their removal is repaired only while a daemon watches)."""
        record = journal.read(folder)
        if record is None:
            return None
        guard = cls.__new__(cls)
        guard._setup(ws, Scope(record.roots, record.excluded, record.objects, record.cache), folder)
        books = record.books
        guard.manifest.update((path, e) for path, e in books.manifest.items() if not guard.scope.disposable(path))
        guard.nested.update(books.nested)
        guard.cache = CacheFolders(record.cache, books.counts, books.mark, books.logs)
        return guard, record.run_dir

    def arm(self, run_dir: Path) -> None:
        """Before a mutation (after `settle`): what is guarded and as what, on disk with the bytes to put back."""
        scope = self.scope
        books = journal.Books(self.manifest, self.nested, self.cache.counts, self.cache.mark, self.cache.logs)
        record = journal.Record(scope.roots, scope.excluded, scope.objects, run_dir, books, scope.cache)
        self.backups.flush()
        self.journal.arm(record, self.unjournaled)
        self.unjournaled.clear()

    def disarm(self) -> None:
        """After the mutation's changes are undone: nothing is left for a start to finish."""
        self.journal.disarm()

    def open(self) -> None:
        """Watch first, then read everything: a change made during the first reading is still reported."""
        try:
            if os.environ.get("AUTORESEARCH_GUARD_POLL"):
                raise Unavailable("AUTORESEARCH_GUARD_POLL is set")
            roots = [*self.scope.roots, self.objects.root]
            self.watcher = Watcher(
                roots, lambda p: not self.objects.covers(p) and self.scope.skip(p), str(self.sentinel_dir)
            )
        except Unavailable as exc:
            get().info("scope guard: inotify unavailable, every path is stat-ed twice a cycle", reason=str(exc))
        self.objects.open()
        for root in self.scope.roots:
            for path, st in walk(root, self._skip):
                self._adopt(path, entry_of(path, st, None, True, self.handed))
        for path, entry in self._walk_nested().items():
            self._adopt(path, entry, self.nested)
        self._settle_cache(None)
        self.backups.sweep()

    def _skip(self, path: str) -> bool:
        """Left out of the manifest: what the scope leaves alone, and the cache's entries (see `cache`)."""
        return self.scope.skip(path) or self.scope.disposable(path)

    def _settle_cache(self, dirty: set[str] | None) -> None:
        if self.scope.cache:
            self.unjournaled.update(self.cache.settle(dirty))

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()

    def settle(self) -> None:
        """Take the tree as it is now as the state to guard (before a mutation)."""
        try:
            changes, objects, dirty = self._look(self.handed)
            for change in changes:
                self._adopt(change.path, change.after)
        finally:  # the files read but unchanged (a racy one), or a settle cut short: nothing held past it
            self.handed.clear()
        for change in objects:
            self.objects.adopt(change.path, change.after)
        for change in self._look_nested():
            self._adopt(change.path, change.after, self.nested)
        self._settle_cache(dirty)

    def changes(self) -> list[Change]:
        """What differs from the settled state (after a mutation). A rewritten index that stages exactly
        what it staged before (the user's `git status` refreshes it) is no change."""
        found = []
        changes, objects, dirty = self._look()
        for change in changes:
            if self._same_index(change):
                self._adopt(change.path, change.after)
            else:
                found.append(change)
        cache = [Change(*c) for c in self.cache.changes(dirty)]
        return found + cache + self._look_nested() + objects

    def _look(self, handed: Handed | None = None) -> tuple[list[Change], list[Change], set[str] | None]:
        """What changed since the last look: in the guarded tree, and among git's object files; and the
        tree's paths inotify named (None: unknown, all are looked at). `handed` keeps the bytes read (a
        settle's, all adopted; not the check after a mutation's, whose changes are undone)."""
        _reclaim(self.sentinel_dir.parent)
        dirty = self.watcher.changed() if self.watcher is not None else None
        objects_dirty: set[str] | None = None
        tree_dirty: set[str] | None = None
        if dirty is not None:
            objects_dirty = {p for p in dirty if self.objects.covers(p)}
            tree_dirty = dirty - objects_dirty
        objects = [Change(*c) for c in self.objects.look(objects_dirty)]
        return self._look_tree(tree_dirty, handed), objects, tree_dirty

    def _look_tree(self, dirty: set[str] | None, handed: Handed | None) -> list[Change]:
        paths: Iterable[str]
        if dirty is None:
            current = self._walk_all(handed)
            paths = [*current, *(p for p in self.manifest if p not in current)]
        else:
            current, paths = self._rescan(dirty, handed)
        changes = []
        for path in paths:
            before, after = self.manifest.get(path), current.get(path)
            if before is after:
                continue
            if before != after:
                changes.append(Change(path, before, after))
            elif after is not None and before is not None and after.sig != before.sig:  # equal, not both None
                self._set(path, after)  # same bytes, new signature (touched, or rewritten alike)
        return sorted(changes, key=lambda c: c.path)

    def _walk_all(self, handed: Handed | None) -> dict[str, Entry]:
        current = {}
        for root in self.scope.roots:
            for path, st in walk(root, self._skip):
                current[path] = entry_of(path, st, self.manifest.get(path), False, handed)
        return current

    def _rescan(self, dirty: set[str], handed: Handed | None) -> tuple[dict[str, Entry], set[str]]:
        """The current entries of the dirty paths (a directory with everything under it), and every path
        they concern, those that vanished included."""
        current: dict[str, Entry] = {}
        paths: set[str] = set()
        for top in dirty:
            if not self.scope.covers(top) or self.scope.disposable(top):
                continue
            paths.add(top)
            old = self.manifest.get(top)
            if old is not None and old.kind == "dir":
                prefix = top + os.sep
                paths |= {p for p in self.manifest if p.startswith(prefix)}
            # below a dirty directory, a file is read again only if its signature moved (its own write is its own event)
            for path, st in walk(top, self._skip):
                current[path] = entry_of(path, st, self.manifest.get(path), path == top, handed)
                paths.add(path)
        return current, paths

    def _walk_nested(self) -> dict[str, Entry]:
        """Every path some filesystem reads as `.git` (any case, `GIT~1`, ...: see autoresearch.mutators.gitnames.is_git_name),
        and all under it, inside a directory artifact (symlinks not followed): git refuses to add them."""
        artifact = str(self.ws.artifact_path)
        found: dict[str, Entry] = {}
        if not kinds.plain_folder(artifact):
            return found
        for directory, dirs, files in os.walk(artifact):
            for name in (n for n in [*dirs, *files] if is_git_name(n)):
                for path, st in walk(os.path.join(directory, name), lambda _: False):
                    found[path] = entry_of(path, st, self.nested.get(path), False)
            dirs[:] = [d for d in dirs if not is_git_name(d)]
        return found

    def _look_nested(self) -> list[Change]:
        current = self._walk_nested()
        paths = sorted({*current, *self.nested})
        return [Change(p, self.nested.get(p), current.get(p)) for p in paths if self.nested.get(p) != current.get(p)]

    def _set(self, path: str, entry: Entry | None, manifest: dict[str, Entry] | None = None) -> Entry | None:
        """The entry `path` now has (None: gone), noted for the next arm's journal; returns the one it had."""
        manifest = self.manifest if manifest is None else manifest
        old = manifest.pop(path, None)
        if entry is not None:
            manifest[path] = entry
        self.unjournaled.add(("m" if manifest is self.manifest else "n", path))
        return old

    def _adopt(self, path: str, entry: Entry | None, manifest: dict[str, Entry] | None = None) -> None:
        old = self._set(path, entry, manifest)
        if entry is not None:
            self.backups.hold(path, entry, old, self.handed.take(path, entry.oid))
        if old is not None:
            self.backups.release(old)

    def _same_index(self, change: Change) -> bool:
        if os.path.basename(change.path) != "index" or not os.path.isfile(
            os.path.join(os.path.dirname(change.path), "HEAD")
        ):
            return False
        if change.before is None or change.after is None or change.before.kind != "file" or change.after.kind != "file":
            return False
        data = self.backups.read(change.before.oid)
        if data is None:
            return False
        with owned.temporary("autoresearch-staged-") as tmp:  # libgit2 reads an index from a file only
            saved = os.path.join(tmp, "index")
            Path(saved).write_bytes(data)
            try:
                staged = _staged(indexfile.read(saved))
                return staged is not None and staged == _staged(indexfile.read(change.path))
            except (pygit2.GitError, OSError, ValueError):
                return False

    def undo(self, changes: list[Change]) -> list[str]:
        """Put every changed path back as it was settled (a result-cache entry: removed, see
        `Scope.disposable`; a cache log that only grew: cut back); returns the paths that could not be."""
        disposable = {
            c.path for c in changes if self.scope.disposable(c.path) and (c.before is None or c.before.kind != GROWN)
        }
        for change in sorted(changes, key=lambda c: c.path.count(os.sep), reverse=True):
            if change.after is not None and (
                change.before is None or change.before.kind != change.after.kind or change.path in disposable
            ):
                _remove(change.path, change.after)
        failed = []
        for change in sorted(changes, key=lambda c: c.path.count(os.sep)):
            if change.path in disposable:
                failed += [change.path] if os.path.lexists(change.path) else []
            elif change.before is not None and not self._put_back_logged(change.path, change.before):
                failed.append(change.path)
        for change in changes:  # the restored files carry new signatures
            if change.path in disposable:
                continue
            try:
                st = os.lstat(change.path)
            except FileNotFoundError:
                continue
            if (
                change.before is not None
                and change.before.kind not in ("object", COUNTED, GROWN)
                and change.path not in failed
            ):
                manifest = self.nested if change.path in self.nested else self.manifest
                self._set(change.path, entry_of(change.path, st, None, True), manifest)
        return failed

    def _put_back_logged(self, path: str, entry: Entry) -> bool:
        try:
            return self._put_back(path, entry)
        except OSError as exc:  # a read-only directory, a full disk: reported, and the re-check stops the run
            get().error("scope guard: cannot restore a path", path=path, error=str(exc))
            return False

    def _put_back(self, path: str, entry: Entry) -> bool:
        if entry.kind == "dir":
            os.makedirs(path, exist_ok=True)
            os.chmod(path, entry.mode)
            return True
        if entry.kind == "other":
            return os.path.lexists(path)
        if entry.kind == "object":
            return self.objects.put_back(path, entry)
        if entry.kind == COUNTED:  # entries removed from the cache: they stay removed (evaluated again)
            self.cache.accept(path)
            return True
        if entry.kind == GROWN:  # what was appended goes; the entries before stay
            return self.cache.cut(path, int(entry.oid))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = os.path.join(
            os.path.dirname(path), f".autoresearch-restore.{os.getpid()}"
        )  # short: `path` may be at NAME_MAX
        _unlink(tmp)
        if not self._put_bytes(entry, tmp):
            get().error("scope guard: no intact copy to restore from", path=path)
            return False
        if entry.kind == "file" and entry.sig and any(map(is_git_name, path.split(os.sep))):
            # git's own files with their times: git trusts an index entry whose file's stat matches unless the
            # entry is as new as the index file itself ("racily clean"), so an index put back with a time of
            # now made git take a same-size rewrite of the artifact, made within that second, for HEAD's:
            # `git checkout HEAD -- <artifact>` then left the candidate in place, and `git status` saw nothing
            os.utime(tmp, ns=(entry.sig[1], entry.sig[1]))
        if kinds.plain_folder(path):
            os.rmdir(path)
        os.replace(tmp, path)
        return True

    def _put_bytes(self, entry: Entry, tmp: str) -> bool:
        """A link or a file with `entry`'s content at `tmp`, from the backups."""
        if entry.kind == "file":
            if not self.backups.write_to(entry.oid, tmp):
                return False
            os.chmod(tmp, entry.mode)
            return True
        data = self.backups.read(entry.oid)
        if data is not None:
            os.symlink(os.fsdecode(data), tmp)
        return data is not None


def _reclaim(folder: Path) -> None:
    """The guard's folder lies in the results directory, where a mutator can write: a file or link put
    in its place goes, so that its sentinel and copies have their folder (a copy found there is
    checked against its id before use, never trusted). Asked twice a cycle: one lstat tells the folder (nothing
    to do) from a link or a file (which goes), where `is_symlink`, `exists` and `is_dir` made three calls."""
    found = kinds.mode(folder, strict=True)
    if found is not None and not stat.S_ISDIR(found):
        folder.unlink()


def _staged_blobs(ws: Workspace) -> set[str]:
    try:
        return {str(e.id) for e in ws.lib.index}
    except pygit2.GitError:  # an index libgit2 cannot read (split, sparse): everything is copied instead
        return set()


def _staged(index: pygit2.Index) -> tuple[tuple[str, str, int], ...] | None:
    """What an index stages, without its stat cache; None (never equal) while it holds a conflict."""
    if index.conflicts is not None:
        return None
    return tuple((e.path, str(e.id), e.mode) for e in index)


def _remove(path: str, entry: Entry) -> None:
    """Remove what the mutation created (already saved). A folder that is not empty, or a path the
    mutator made unremovable, stays: the re-check (`verify`) then stops the run, naming it."""
    try:
        if entry.kind == "dir":
            os.rmdir(path)
        else:
            _unlink(path)
    except OSError as exc:
        get().error("scope guard: cannot remove a path", path=path, error=str(exc))


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
