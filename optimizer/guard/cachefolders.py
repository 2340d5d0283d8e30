"""The result cache's eval folders under the scope guard, with nothing held per entry.

A night's eval stores an entry a cycle, and the guard held each in its manifest
(path, kind, mode, blob id, signature: 0.6 KiB a cycle, for good). An entry's
bytes are never put back (see autoresearch.optimizer.guard.reach.Scope.disposable:
what a mutation changed there is removed, and the sample evaluated again), so
the guard needs only to see that something changed, and what is new. Per eval
folder it holds the number of paths below it as settled, and for all of them
one mark: the change time (ctime) a file of that filesystem would get at the
settle. No process can set a ctime back, and every write, rename, link or chmod
moves it to the clock's time: after the settle, a path whose ctime is at or
past the mark was written since (new, edited, or put in place by a rename),
and fewer older paths than settled means some were removed. The settle waits
until the mark is past every path's ctime (a clock tick, a few ms at most on
Linux filesystems), so that an entry written just before it is not taken for
the mutation's. A removed entry's name is gone with it: the folder itself is
the change reported.

With inotify, a settle does not list a folder again (a night's listing grows
by an entry a cycle): it holds, per folder, the names below it as settled,
each as a keyed 64-bit fingerprint in a sorted array (8 bytes an entry, not
the name), and sets each name inotify reported since the last settle (in the
mutation's window and the eval's) to what it is now: there or not. The rule
is the same whichever window a path came in, and however often it comes (an
undo's removals, an `accept` meanwhile), so nothing is counted twice. A folder
inotify reports whole, one holding a sub-folder, one whose names are not held
(after a walk, a start, a resume) is listed as before.

An eval folder's log (autoresearch.runs.cachelog: every entry appended to
one file) is the exception to "removed, never put back": its ctime moves at
every append, and removing it lost every earlier entry, each then evaluated
again. So the guard holds each log as settled, (inode, size, a digest of its
bytes), extended at each settle by the bytes appended since. A log written
during the mutation that is the same file, no shorter, and whose first
settled bytes still have that digest only grew: it is a change (`GROWN`, the
candidate dropped) and the undo cuts it back to its settled length. A log
otherwise rewritten is a new entry, removed as any other. The daemon's own
appends come after the guard's compare and undo (autoresearch.runs.cache's
`held`) and are taken in by the next settle.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import os
import stat
import time
from array import array
from collections.abc import Iterable, Iterator

from autoresearch.optimizer.guard.manifest import Entry, entry_of, walk
from autoresearch.plumbing import inplace, trees
from autoresearch.runs.cachelog import NAME as LOG

KIND = "entries"  # a folder's count of paths, as a change's entry: what `Guard.undo` has nothing to put back for
GROWN = "grown"  # a log only appended to, as a change's entry (its size): `Guard.undo` cuts it back to `before`'s
CHUNK = 1 << 20
Settled = tuple[int, int, str]  # a log's inode, size and the digest of its bytes
PROBE = ".guard-clock"
WAIT_S = 3.0  # the coarsest timestamps (FAT's 2 s) pass in this


def probe(cache: str) -> str:
    """Where the clock is read: in the cache's root, on its filesystem (left out of the guard's scope)."""
    return os.path.join(cache, PROBE)


def counted(count: int) -> Entry:
    return Entry(KIND, 0, str(count))


class CacheFolders:
    """The cache's eval folders: their settled counts and the mark, set by `settle`, compared by `changes`."""

    def __init__(
        self, cache: str, counts: dict[str, int] | None = None, mark: int = 0, logs: dict[str, Settled] | None = None
    ):
        self.cache = cache
        self.probe = probe(cache)
        self.counts: dict[str, int] = dict(counts or {})
        self.logs: dict[str, Settled] = dict(logs or {})  # each eval folder's log as settled
        self._digests: dict[str, hashlib.blake2b] = {}  # a log's digest as settled, to extend at the next settle
        self._cut: dict[str, tuple[int, int, int]] = {}  # a log cut back by `cut`: (inode, size, ctime) then
        self.mark = mark
        self._names: dict[str, array[int]] = {}  # a folder's names as settled, fingerprinted (see `_print`)
        self._seen: set[str] = set()  # the paths inotify named since the last settle, in the mutation's window
        self._key = os.urandom(16)  # unknown to a mutator: it cannot make two names share a fingerprint

    def folder(self, path: str) -> str | None:
        """The eval folder `path` is in or is, or None."""
        if not self.cache or not path.startswith(self.cache + os.sep):
            return None
        return os.path.join(self.cache, path[len(self.cache) + 1 :].split(os.sep)[0])

    def _narrowed(self, dirty: set[str] | None) -> set[str] | None:
        """`dirty`, or None (look at everything) when it names the cache's root or a folder above it: a
        folder inotify reports whole, made again since."""
        if dirty is None or any(self.cache == p or self.cache.startswith(p + os.sep) for p in dirty):
            return None
        return dirty

    def _concerned(self, dirty: set[str] | None) -> set[str]:
        """The eval folders to look at: all of them (those settled, and those there now), or the dirty ones'."""
        if dirty is not None:
            return {folder for folder in map(self.folder, dirty) if folder is not None}
        try:
            with os.scandir(self.cache) as items:
                present = {item.path for item in items if item.is_dir(follow_symlinks=False)}
        except OSError:
            present = set()
        return present | set(self.counts)

    def changes(self, dirty: set[str] | None) -> Iterator[tuple[str, Entry | None, Entry | None]]:
        """(path, before, after): each path below a concerned folder written since the mark (as new), and
        the folder itself when fewer of the older paths are left than were settled."""
        dirty = self._narrowed(dirty)
        self._note(dirty)
        for folder in sorted(self._concerned(dirty)):
            older = 0
            for path, st in _below(folder):
                if st.st_ctime_ns < self.mark or self._cut.get(path) == (st.st_ino, st.st_size, st.st_ctime_ns):
                    older += 1
                elif self._grown(path, st):
                    older += 1
                    yield path, Entry(GROWN, 0, str(self.logs[path][1])), Entry(GROWN, 0, str(st.st_size))
                else:
                    yield path, None, entry_of(path, st, None, True)
            if older < self.counts.get(folder, 0):
                yield folder, counted(self.counts[folder]), counted(older)

    def _grown(self, path: str, st: os.stat_result) -> bool:
        """Whether the log at `path` is the one settled, no shorter, its settled bytes as they were."""
        settled = self.logs.get(path)
        if settled is None or not stat.S_ISREG(st.st_mode) or st.st_ino != settled[0] or st.st_size < settled[1]:
            return False
        read = _digest(path, settled[0], 0, settled[1], hashlib.blake2b())
        return read is not None and read[1] == settled[1] and read[2].hexdigest() == settled[2]

    def cut(self, path: str, size: int) -> bool:
        """The log at `path` cut back to `size`, its settled length (after a mutation appended to it)."""
        settled = self.logs.get(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except PermissionError:  # made read-only (the mutation's `chmod 444`, an admin's): the daemon's own file
            again = None if settled is None else inplace.usable_again(path, os.O_WRONLY, settled[0])
            if again is None:
                return False
            fd = again
        except OSError:
            return False
        try:
            st = os.fstat(fd)
            if settled is None or not stat.S_ISREG(st.st_mode) or st.st_ino != settled[0]:
                return False
            os.ftruncate(fd, size)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        self._cut[path] = (st.st_ino, st.st_size, st.st_ctime_ns)
        return True

    def accept(self, folder: str) -> None:
        """What is below `folder` now is its settled state (after an undo: removed entries stay removed)."""
        self.counts[folder] = self._list(folder)

    def settle(self, dirty: set[str] | None) -> set[tuple[str, str]]:
        """Take the folders as they are now, and a new mark past every path's ctime; returns ("c", folder)
        for each folder whose count moved and ("l", log) for each log that did (for the journal). With `dirty` (inotify's paths) only those are stat-ed: any
        other was written before the last mark, so its ctime is before the new one too."""
        moved = set()
        dirty = self._narrowed(dirty)
        recent = [path for path in dirty or () if self.folder(path) not in (None, path)]
        self._note(dirty)
        named: dict[str, list[str]] = {}
        for path in self._seen:
            named.setdefault(self.folder(path) or "", []).append(path)
        self._seen = set()
        for folder in self._concerned(dirty) | (set(named) if dirty is not None else set()):
            if dirty is None:
                below = list(_below(folder))
                recent += [path for path, st in below if st.st_ctime_ns >= self.mark]
                count = len(below)
            else:
                count = self._update(folder, named.get(folder, ()))
            if self.counts.get(folder) != count:
                moved.add(("c", folder))
            if count or folder in self.counts:
                self.counts[folder] = count
            log = os.path.join(folder, LOG)
            if self._settle_log(log):
                moved.add(("l", log))
        self._cut.clear()
        self.mark = self._past(recent)
        return moved

    def _settle_log(self, path: str) -> bool:
        """The log at `path` as it is now, its digest extended by the bytes appended since the last settle
        (from its start when it is another file, or shorter); returns whether it moved."""
        old = self.logs.get(path)
        digest = self._digests.get(path)
        read = None
        if old is not None and digest is not None:
            read = _digest(path, old[0], old[1], None, digest)
        if read is None:  # none held, another file, or shorter: read from its start
            read = _digest(path, None, 0, None, hashlib.blake2b())
        if read is None:
            self._digests.pop(path, None)
            return self.logs.pop(path, None) is not None
        inode, size, digest = read
        self._digests[path] = digest
        self.logs[path] = (inode, size, digest.hexdigest())
        return self.logs[path] != old

    def _note(self, dirty: set[str] | None) -> None:
        """Keep the cache's paths inotify named for the next settle; without them (a walk) no names are held."""
        if dirty is None:
            self._names.clear()
            self._seen = set()
        else:
            self._seen.update(path for path in dirty if self.folder(path) is not None)

    def _update(self, folder: str, paths: Iterable[str]) -> int:
        """The paths below `folder` now: its names as settled, each of `paths` set to whether it is there;
        listed again when its names are not held, or a path is the folder, a sub-folder or below one."""
        names = self._names.get(folder)
        updates = []
        for path in paths:
            if names is None or os.path.dirname(path) != folder:
                return self._list(folder)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                updates.append((self._print(os.path.basename(path)), False))
                continue
            except OSError:
                return self._list(folder)
            if stat.S_ISDIR(st.st_mode):
                return self._list(folder)
            updates.append((self._print(os.path.basename(path)), True))
        if names is None:
            return self._list(folder)
        for fingerprint, there in updates:
            at = bisect.bisect_left(names, fingerprint)
            held = at < len(names) and names[at] == fingerprint
            if there and not held:
                names.insert(at, fingerprint)
            elif held and not there:
                names.pop(at)
        return len(names)

    def _list(self, folder: str) -> int:
        """The paths below `folder`, from its listings alone (no stat of each); its names held when it
        has no sub-folder (`_update` sets them from then on)."""
        count, stack, flat, prints = 0, [folder], True, array("Q")
        while stack:
            try:
                with os.scandir(stack.pop()) as items:
                    for item in items:
                        count += 1
                        if item.is_dir(follow_symlinks=False):
                            stack.append(item.path)
                            flat = False
                        elif flat:
                            prints.append(self._print(item.name))
            except OSError:
                flat = flat and not os.path.lexists(folder)  # a folder gone holds nothing; one unreadable, unknown
                continue
        held = sorted(set(prints))
        if flat and len(held) == count:  # two names with one fingerprint (not made on purpose): listed each time
            self._names[folder] = array("Q", held)
        else:
            self._names.pop(folder, None)
        return count

    def _print(self, name: str) -> int:
        """The fingerprint of a name in a folder: keyed, so a mutator cannot choose a name that shares one."""
        digest = hashlib.blake2b(os.fsencode(name), digest_size=8, key=self._key).digest()
        return int.from_bytes(digest, "little")

    def _past(self, recent: list[str]) -> int:
        """A mark past the ctime of each of `recent`, from the filesystem's own clock. A ctime still ahead
        of it after WAIT_S (a clock set back since) is left ahead: that path then reads as written during
        the mutation, and is removed, never missed."""
        deadline = time.monotonic() + WAIT_S
        while True:
            mark = self._now()
            if mark is None:  # no probe (the cache's root gone): the old mark, later than nothing there now
                return self.mark
            if max(map(_ctime, recent), default=0) < mark or time.monotonic() > deadline:
                return mark
            time.sleep(0.001)

    def _now(self) -> int | None:
        """The ctime the filesystem gives a file changed now: its probe's, its times set to now (a change
        time no process can set otherwise); made anew when it is not the daemon's own file (whatever a
        mutator put in its place goes); None when none can be made there."""
        fd = inplace.owned(self.probe)
        if fd is not None:
            try:
                os.utime(fd)
                return os.fstat(fd).st_ctime_ns
            finally:
                os.close(fd)
        try:
            if os.path.isdir(self.probe) and not os.path.islink(self.probe):
                trees.remove(self.probe)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.probe)
            fd = os.open(self.probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except OSError:
            return None
        try:
            return os.fstat(fd).st_ctime_ns
        finally:
            os.close(fd)


def _digest(
    path: str, inode: int | None, start: int, size: int | None, digest: hashlib.blake2b
) -> tuple[int, int, hashlib.blake2b] | None:
    """`digest` extended by the bytes of the regular file at `path` from `start` to `size` (None: its end),
    with its inode and the size read to; None when it is not one, is not `inode` (when given) or is shorter
    than `start`. A link is never followed, a FIFO never blocks."""
    with inplace.regular(path) as found:
        if found is None:
            return None
        f, st = found
        if inode is not None and st.st_ino != inode or st.st_size < start:
            return None
        end = st.st_size if size is None else min(size, st.st_size)
        f.seek(start)
        while start < end and (data := f.read(min(CHUNK, end - start))):
            digest.update(data)
            start += len(data)
        return st.st_ino, start, digest


def _below(folder: str) -> Iterator[tuple[str, os.stat_result]]:
    for path, st in walk(folder, lambda _: False):
        if path != folder:
            yield path, st


def _ctime(path: str) -> int:
    try:
        return os.lstat(path).st_ctime_ns
    except OSError:  # gone since: nothing of it to wait for
        return 0
