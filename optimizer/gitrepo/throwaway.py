"""The sandboxed mutator's throwaway checkout, kept from cycle to cycle and put back to HEAD in-process.

Made anew and removed every cycle, it cost a `mkdir`, five writes, a checkout and an index, then some
sixteen unlinks: a large part of the loop's own time (bench/loop_overhead.py). It is kept only when it
provably holds what a fresh one would, but for the artifact:

- after it is made or put back, every path under it and under git's folder for it is recorded (kind,
  permissions, inode; a file's size, modification and change times), and a stamp is touched: a file whose
  change time is not strictly before the stamp's ("racily clean", as git says) is recorded by its content
  too, as are HEAD and the index of git's folder when the put-back wrote them itself (by the bytes it wrote);
- before the next cycle the whole of both is walked again: a path added or gone, or any recorded field
  changed (writing a file moves its change time, which no process sets back), or a racily clean entry whose
  content changed, anywhere but under the artifact, and the checkout is removed and made anew;
- so is it when HEAD's tree differs from the recorded commit's outside the artifact, or when libgit2 would
  not check it out as git does (autoresearch.optimizer.gitrepo.linked);
- otherwise the artifact's paths are removed and written again from HEAD's tree; after a KEEP (HEAD
  moved) HEAD is written and their index entries updated, after a DROP the index is left as it was
  (writing it was half of the put-back's time): its entries still name HEAD's blobs, and only the
  artifact's cached times are stale, which makes git compare its content with the blob, not trust them.
  A file artifact libgit2 would write unfiltered (no end-of-line conversion, no `ident`: libgit2's own
  filter list for it is empty) is written from its blob here, as libgit2 makes it (libgit2's checkout read the
  index, the configuration and the attributes to write those bytes): over the file there, in place, while that
  is still the checkout's own with a new file's permissions, else a new file (`_write_blob`), and after a KEEP
  its one index entry is written here too, in place when the index keeps its length, else under git's lock
  (`_Entry`: libgit2's checkout, the index's lock and its rename were three quarters of a KEEP's put-back). Anything else, a folder artifact, one filtered,
  an index with more than the entry names (a split index, an entry marked), is libgit2's checkout's.
  That the filter list is empty is remembered from one put-back to the next while what it comes from
  holds (`_unfiltered`).

The repository a put-back opens is the cycle's workspace's; it is kept for the next cycle (opening one read
the configuration files and git's folder anew: some 70-100 us), unless a configuration or attributes file
changed since it was opened (libgit2 keeps what it read of the configuration, `core.autocrlf` among it, for
as long as the repository is open; autoresearch.optimizer.gitrepo.gitconfig watches those files). After a
KEEP (HEAD moved) its caches are given back, the handle kept (pygit2's `free`: the object cache, which would
keep each KEEP's commit and trees, the index, the references and the configuration, each read again when
next asked): what it was opened from is as it was, by the check. A put-back that needs no repository (the
artifact known unfiltered) opens none: the cycle opens it when it asks for it.

So a file, a link, a folder or a hook a mutator leaves, a `.git` file it edits or replaces, a mode it
changes, all make the next cycle's checkout a fresh one.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pygit2
from pygit2.enums import CheckoutStrategy, FileMode, FilterMode

from autoresearch.optimizer.gitrepo import candidates, gitconfig, indexentry, indexfile, indexflags, linked
from autoresearch.optimizer.gitrepo.handles import checkout_tree, common_dir, release, with_repository
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import atomic, faults, inplace, trees

NAME = "sandboxed"  # the cycle folder of the throwaway checkout: candidates/sandboxed/0

# (kind and permissions, inode, size, modification time, change time) of a path (a folder's: the first two)
Entry = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class _Record:
    ws: Workspace
    admin: Path
    commit: str
    entries: dict[str, Entry]  # by path: "w/<relative>" in the checkout, "a/<relative>" in git's folder
    digests: dict[str, str]  # the racily clean files' contents
    settings: gitconfig.Settings  # as found when `ws.lib` was opened (or before: it opens lazily)
    unfiltered: bool  # the last put-back wrote the artifact from its blob (see `_unfiltered`)


@dataclass(frozen=True)
class _Put:
    """A put-back done: the checkout's workspace (its repository, if the put-back opened one, kept open: see
    the module's docstring), the settings found before, its paths as the check before found them, whether
    it wrote the artifact from its blob, and which files of git's folder it may have written, with the bytes
    it wrote there when it wrote them itself (libgit2's checkout's are not known)."""

    ws: Workspace
    settings: gitconfig.Settings
    before: dict[str, Entry]
    unfiltered: bool  # never for an attributes file, whose own content decides it
    written: dict[str, bytes | None]  # HEAD and the index after a KEEP, the index with a configuration changed


class Throwaway:
    """The run's throwaway checkout (one at a time: the mutation is sequential under the sandbox)."""

    def __init__(self, main: Workspace, meta: Path) -> None:
        self.main, self.meta = main, meta
        self._kept: _Record | None = None

    def take(self) -> Workspace:
        """A checkout of HEAD, as fresh as a new one (see the module's docstring)."""
        head = self.main.head()
        kept, self._kept = self._kept, None
        if kept is not None:
            try:
                put = self._put_back(kept, head)
            except BaseException:
                release(kept.ws)
                raise
            if put is not None:
                self._kept = _record(put.ws, put.settings, kept.admin, head, put)
                return put.ws
            release(kept.ws)
        self.drop()
        found = linked.plain(self.main, head, common_dir(self.main))  # before the checkout's repository opens
        ws = candidates.make(self.main, self.meta, NAME, 1)[0]
        admin = linked.admin_of(self.main, ws.root)
        if admin is not None and found is not None:
            self._kept = _record(ws, found, admin, head)
        return ws

    def drop(self) -> None:
        """Remove the checkout and git's record of it (at the end of a run, or to make it anew)."""
        if self._kept is not None:
            release(self._kept.ws)
        self._kept = None
        candidates.clear(self.main, self.meta, NAME)

    def _put_back(self, kept: _Record, head: str) -> _Put | None:
        """The checkout put back to `head`; None when it must be made anew."""
        ws = kept.ws
        settings = linked.plain(self.main, head, common_dir(self.main))
        if settings is None or not _only_artifact(self.main.lib, kept.commit, head, ws.artifact):
            return None
        before = _unchanged_but_the_artifact(kept, ws, self.main.lib)
        if before is None:
            return None
        moved = head != kept.commit
        renewed = moved or settings is not kept.settings  # see the module's docstring
        if settings is not kept.settings:  # a repository opened anew
            release(ws)
            ws = replace(ws)
        elif moved and "lib" in ws.__dict__:  # its caches given back, the handle kept
            ws.lib.free()
        tree = self.main.lib[head].peel(pygit2.Tree)
        target = ws.artifact_path
        try:
            # HEAD written over in place (a new file is some hundreds of microseconds of an ext4 journal); one
            # that is not the checkout's own plain file (a link, a second name) is never written: made anew
            named = (head + "\n").encode("ascii")
            if moved and not inplace.cut(kept.admin / "HEAD", named):
                release(ws)
                return None
            blob = None
            if settings is kept.settings:  # else libgit2 checks it out, with the configuration read anew
                if not kept.unfiltered:
                    ws = _opened(ws)
                blob = _unfiltered(tree, ws.artifact, None if kept.unfiltered else ws.lib)
            entry = _Entry.of(self.main.lib, kept, tree, ws.artifact, blob) if moved and blob is not None else None
            if moved and entry is None:
                blob = None
            if blob is not None:
                _write_blob(blob, target)
            index = entry.write(target) if entry is not None else None
            if entry is not None and index is None:
                release(ws)
                return None
            if blob is None:
                _remove(target)
                ws = _opened(ws)
                strategy = CheckoutStrategy.FORCE | (0 if renewed else CheckoutStrategy.DONT_UPDATE_INDEX)
                checkout_tree(ws.lib, ws.lib[tree.id], strategy=strategy, paths=[ws.artifact])
        except (pygit2.GitError, OSError):
            release(ws)
            return None
        unfiltered = blob is not None and os.path.basename(ws.artifact) != _ATTRIBUTES
        written = dict.fromkeys(_WRITTEN if renewed else ()) | ({_HEAD: named} if moved else {})
        return _Put(ws, settings, before, unfiltered, written | ({_INDEX: index} if index is not None else {}))


@dataclass(frozen=True)
class _Entry:
    """The artifact's entry in the checkout's index, to name HEAD's blob after a KEEP as libgit2's checkout
    would have it (its status fields the new file's), written in place by autoresearch.optimizer.gitrepo
    .indexentry: the index's other entries and bytes stay as they were, as they would under libgit2, which
    read and wrote it all. Only a file artifact, a plain or executable file in both trees, whose entry names
    the recorded commit's blob and nothing else stands in the way (see `indexentry`); never an attributes
    file, whose content decides how it is itself checked out."""

    admin: Path
    path: str
    index: indexentry.Index
    blob: pygit2.Blob  # HEAD's, written as it is (see `_unfiltered`)

    @staticmethod
    def of(repo: pygit2.Repository, kept: _Record, tree: pygit2.Tree, path: str, blob: pygit2.Blob) -> _Entry | None:
        """The entry to write after a KEEP to `tree`, whose artifact `blob` is written as it is (`repo`: the
        user's); None when libgit2's checkout must write the index."""
        old = _file(repo[kept.commit].peel(pygit2.Tree), path)
        if old is None or os.path.basename(path) == _ATTRIBUTES:
            return None
        index = indexentry.read(str(kept.admin), path)
        if index is None or (index.entry.oid, index.entry.mode) != (old.id.raw, old.filemode):
            return None
        return _Entry(kept.admin, path, index, blob)

    def write(self, target: Path) -> bytes | None:
        """The entry written for `target`: the index's bytes as written; None, having written nothing, when a git
        holds `index.lock` or the index is no file of the checkout's alone. New bytes of the index's length are written over it in
        place (git's way, a lock made and renamed over it, was most of the put-back's time: two new names in
        an ext4 journal): a kill or a reader meanwhile finds every entry and extension where it was, the
        artifact's fields and the checksum old or new (git checks the checksum only in `fsck`); a process a
        mutator left that writes the index since makes the next check find it changed. Shorter bytes (the
        cache tree invalidated on the artifact's path, once after a mutator's `git write-tree` or commit) are
        written git's way: cut short of their length by a kill, they left the old tail, which the user's
        `git gc` (it reads every worktree's index) took for an unknown extension and failed on, until the
        next start removed the checkout."""
        if os.path.lexists(os.path.join(self.admin, "index.lock")):
            return None
        blob = self.blob
        data = indexentry.patched(self.index, self.path, blob.id.raw, blob.filemode, os.lstat(target))
        if len(data) == len(self.index.data):
            cut = inplace.cut(self.admin / "index", data, lambda: faults.point("putback-index-written"))
            return data if cut else None
        lock = indexentry.Lock(str(self.admin))
        if not lock.taken:
            return None
        try:
            lock.write(data)
            faults.point("putback-index-written")
            lock.commit()
        finally:
            lock.release()
        return data


_ATTRIBUTES = ".gitattributes"  # whose content decides how it is itself checked out


def _opened(ws: Workspace) -> Workspace:
    """`ws` with its repository open: opened here if it was not (a GitError, not `lib`'s InvalidInput: the
    checkout is made anew)."""
    return ws if "lib" in ws.__dict__ else with_repository(ws, pygit2.Repository(str(ws.root)))


def _file(tree: pygit2.Tree, path: str) -> pygit2.Blob | None:
    """`path` in `tree` when it is a plain or executable file there."""
    try:
        entry = tree[path]
    except KeyError:
        return None
    if entry.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE) or not isinstance(entry, pygit2.Blob):
        return None
    return entry


def _unfiltered(tree: pygit2.Tree, artifact: str, repo: pygit2.Repository | None) -> pygit2.Blob | None:
    """The artifact's blob in `tree` when libgit2's checkout would write it as it is (a plain or executable
    file there, libgit2's own filter list for it in the checkout's repository `repo` empty: no end-of-line
    conversion, no `ident`); None when the checkout must write it (libgit2 read the index, the configuration
    and the attributes to write those bytes). `repo` None: the last put-back found the list empty, and what
    it comes from is as it was then (the configuration and attributes files outside the checkout by the
    settings' identity, the checkout's own by the check, the index's by HEAD's tree outside the artifact):
    it is not loaded again."""
    entry = _file(tree, artifact)
    if entry is None or repo is not None and repo.load_filter_list(artifact, FilterMode.TO_WORKTREE) is not None:
        return None
    return entry


def _write_blob(blob: pygit2.Blob, target: Path) -> None:
    """`blob` written at `target` as libgit2's checkout writes it: a file with the permissions of a new file or
    program under the umask. Written over in place when the checkout's file there is already that (a regular
    file of one name, not a link, with those permissions: `inplace.owned`): a new file was an inode a cycle,
    which an ext4 without a journal searches for past every inode deleted in the last minutes (docs/benchmarks
    .md, the fourteenth round). Anything else there (a folder, a link, a FIFO, a second name, another mode) is
    removed and the file made anew, never followed (O_EXCL, O_NOFOLLOW)."""
    permissions = (0o777 if blob.filemode == FileMode.BLOB_EXECUTABLE else 0o666) & ~atomic.umask()
    fd = inplace.owned(target)
    if fd is not None and stat.S_IMODE(os.fstat(fd).st_mode) != permissions:
        os.close(fd)
        fd = None
    if fd is None:
        _remove(target)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, permissions)
    try:
        inplace.overwrite(fd, blob.data, lambda: faults.point("putback-artifact-written"))
    finally:
        os.close(fd)


def _remove(target: Path) -> None:
    """Whatever is at the artifact's path in the checkout, gone (a folder with what is in it)."""
    if target.is_dir() and not target.is_symlink():
        trees.remove(target)
    elif os.path.lexists(target):
        target.unlink()


def _only_artifact(repo: pygit2.Repository, old: str, new: str, artifact: str) -> bool:
    """HEAD's tree at `new` is the one at `old` outside the artifact."""
    if old == new:
        return True
    diff = repo[old].peel(pygit2.Tree).diff_to_tree(repo[new].peel(pygit2.Tree))
    for delta in diff.deltas:
        for path in (delta.old_file.path, delta.new_file.path):
            if not (path == artifact or path.startswith(artifact + "/")):
                return False
    return True


def _unchanged_but_the_artifact(kept: _Record, ws: Workspace, repo: pygit2.Repository) -> dict[str, Entry] | None:
    """Every path under the checkout and git's folder for it, but the artifact's, as recorded: what they
    all are now; None when one differs. The walk leaves the artifact's paths out, so that the record and
    it compare whole (the common case: one comparison of two dictionaries, not one a path)."""
    now = _walk(ws.root, kept.admin, ws.artifact)
    if now != kept.entries:
        for path in now.keys() | kept.entries.keys():
            if now.get(path) != kept.entries.get(path):
                if path == _INDEX and path in now and _names_only(ws, kept, repo):
                    continue
                return None
    for path, digest in kept.digests.items():
        if digest != _digest(ws.root, kept.admin, path):
            return None
    return now


_INDEX = "a/index"  # the checkout's index, in git's folder for it
_HEAD = "a/HEAD"
_WRITTEN = (_HEAD, _INDEX)  # what a put-back may write in git's folder: HEAD after a KEEP, the index


def _names_only(ws: Workspace, kept: _Record, repo: pygit2.Repository) -> bool:
    """The checkout's index, written since the record, names what it named: the recorded commit's tree, every
    entry unmarked, none in conflict. After a DROP the artifact's entry keeps the dropped candidate's cached
    times (the index is not written); a mutator's `git status` refreshes them and writes the index, which
    then differed from the record by its times alone, and the checkout was made anew for it every cycle."""
    try:
        index = indexfile.read(kept.admin / "index")
        if index.conflicts is not None:
            return False
        marked = indexflags.unlooked(str(kept.admin), len(repo[kept.commit].id.raw), lambda: _listing(ws))
        tree = repo[kept.commit].peel(pygit2.Tree)
    except (pygit2.GitError, OSError):
        return False
    return marked == [] and {e.path: (e.mode, e.id) for e in index} == dict(_blobs(tree, ""))


def _listing(ws: Workspace) -> str:
    """A split index's entries, with their flags, as git lists them (libgit2 reads no split index)."""
    return ws.git("ls-files", "-v", "-s", "-z")


def _blobs(tree: pygit2.Tree, prefix: str) -> Iterator[tuple[str, tuple[int, pygit2.Oid]]]:
    """Every entry of `tree` but its folders, by path, as an index names it: (mode, object id)."""
    for entry in tree:
        if isinstance(entry, pygit2.Tree):
            yield from _blobs(entry, f"{prefix}{entry.name}/")
        else:
            yield f"{prefix}{entry.name}", (entry.filemode, entry.id)


def _record(ws: Workspace, settings: gitconfig.Settings, admin: Path, commit: str, put: _Put | None = None) -> _Record:
    """The record of the checkout as it is (the artifact's paths, never checked, are neither read nor
    recorded). `put`: the put-back's, whose paths as the check before it found them are taken for the
    checkout's and git's folder's (it wrote none of them but the artifact's and the files of git's folder
    it names, found again). A path changed since the check is not taken in as it is now, as a walk would
    have taken it: it differs from the record at the next check (after a KEEP, a walk of git's folder took
    in what a process the mutator left wrote there meanwhile). A file of git's folder the put-back wrote
    itself (HEAD, the index after a KEEP) is recorded by the bytes it wrote as well, whatever its times: a
    write to it since, in any clock tick, differs at the next check, and the file is not read back for it
    (two opens a KEEP, the index's bytes hashed as they are in memory)."""
    if put is None:
        entries = _walk(ws.root, admin, ws.artifact)
    else:
        entries = dict(put.before)
        for path in put.written:
            try:
                entries[path] = _entry(os.lstat(os.path.join(admin, path[2:])))
            except FileNotFoundError:
                entries.pop(path, None)
    stamp = os.path.dirname(ws.root)
    os.utime(stamp)  # the stamp: its folder's change time is now the file system's "now"
    now = os.stat(stamp).st_ctime_ns
    wrote = {path: data for path, data in put.written.items() if data is not None} if put is not None else {}
    digests = {
        path: _digest(ws.root, admin, path)
        for path, entry in entries.items()
        if entry[4] >= now and stat.S_ISREG(entry[0]) and path not in wrote
    }
    digests.update((path, hashlib.sha256(data).hexdigest()) for path, data in wrote.items())
    return _Record(ws, admin, commit, entries, digests, settings, put is not None and put.unfiltered)


def _walk(root: Path, admin: Path, artifact: str) -> dict[str, Entry]:
    """Every path under the checkout (but the artifact's) and git's folder for it."""
    found: dict[str, Entry] = {}
    _walk_below(found, str(root), "w", "w/" + artifact)
    _walk_below(found, str(admin), "a", "")
    return found


def _walk_below(found: dict[str, Entry], top: str, prefix: str, skip: str) -> None:
    """Every path below `top` into `found`, by `prefix`/<its path under top>, but `skip` and what is in it."""
    stack = [(top, prefix)]
    while stack:
        folder, under = stack.pop()
        for item in os.scandir(folder):
            key = f"{under}/{item.name}"
            if key == skip:
                continue
            found[key] = entry = _entry(item.stat(follow_symlinks=False))
            if stat.S_ISDIR(entry[0]):
                stack.append((item.path, key))


def _entry(st: os.stat_result) -> Entry:
    if stat.S_ISDIR(st.st_mode):  # what it holds is walked: its own times are not git's
        return (st.st_mode, st.st_ino, 0, 0, 0)
    return (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _digest(root: Path, admin: Path, path: str) -> str:
    top = root if path.startswith("w/") else admin
    try:
        with open(os.path.join(top, path[2:]), "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError:
        return ""
