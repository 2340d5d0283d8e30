"""Which entries of the mirror's two trees were added, removed or renamed since the last look: inotify.

Without it the mirror (autoresearch.optimizer.experiment.mirror) `lstat`s every folder of the experiment
and of its copy before and after each mutation, a cost that grows with the night (one or two run
directories a cycle). The kernel queues an event before the call that caused it returns, so once the
mutator has exited every name it added or removed is in the queue, and only those names need a look: the
experiment's top folder, one entry a run directory, is not read whole each time a run directory is added.

Only changes of names are watched (`IN_CREATE`, `IN_DELETE`, the moves): the mirror's links depend on
which file a name is, never on what it holds. The answer is None, and the caller walks everything,
whenever it might be incomplete: the queue overflowed, a watch could not be added (`max_user_watches`),
inotify is missing, or a folder was moved or renamed (the paths of every watch below it would then be
stale). After a None every watch is made anew before the caller walks, so nothing between is missed.
"""

from __future__ import annotations

import ctypes
import errno
import os
from collections.abc import Callable

from autoresearch.optimizer.guard.fswatch import (
    IN_CLOEXEC,
    IN_CREATE,
    IN_DELETE,
    IN_DELETE_SELF,
    IN_DONT_FOLLOW,
    IN_EXCL_UNLINK,
    IN_IGNORED,
    IN_ISDIR,
    IN_MOVE_SELF,
    IN_MOVED_FROM,
    IN_MOVED_TO,
    IN_NONBLOCK,
    IN_ONLYDIR,
    IN_Q_OVERFLOW,
    decoded,
    libc,
)

_MASK = (
    IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW
)


class FolderWatch:
    """Every folder under `tops` but those `skip` names (and what is below them). Raises
    autoresearch.optimizer.guard.fswatch.Unavailable without inotify."""

    def __init__(self, tops: list[str], skip: Callable[[str], bool]) -> None:
        self.tops, self.skip = tops, skip
        self._libc = libc()
        self.fd = -1
        # each watch's folder, held short (one a run directory a cycle, in each tree, held for the night): the
        # index of its top as one character, then the rest of its path (`_short`, `_folder`)
        self.dirs: dict[int, str] = {}
        self._complete = False  # no watches yet: the first look walks, and watches everything first
        self._refused = False  # a watch refused (the `max_user_watches` limit): walked from then on

    def dirty(self) -> dict[str, set[str]] | None:
        """The names added, removed or renamed since the last call, by folder, or None: walk everything
        (every watch is in place again before this returns, so what changes during that walk is seen next
        time)."""
        if self._complete and self.fd >= 0:
            found = self._read()
            if found is not None:
                return found
        if self._refused:  # watching again would be refused again, at the cost of a walk of its own
            self.close()
            return None
        self._rewatch()
        return None

    def close(self) -> None:
        fd, self.fd = self.fd, -1  # forgotten first: a signal raised as os.close returns must not close it twice
        if fd >= 0:
            os.close(fd)

    def _rewatch(self) -> None:
        self.close()
        self.dirs = {}
        self.fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        self._complete = self.fd >= 0
        self._refused = self.fd < 0  # `max_user_instances` reached
        for index, top in enumerate(self.tops):
            if not os.path.isdir(top) or os.path.islink(top):  # not there yet: watched once it is
                self._complete = False
            self._watch_tree(index, top)

    def _watch_tree(self, index: int, top: str) -> None:
        """`top` and every folder below it, all under `self.tops[index]`."""
        stack = [top]
        while stack and self._complete:
            path = stack.pop()
            if self.skip(path) or not self._watch(path, index):
                continue
            try:
                with os.scandir(path) as entries:
                    stack += [e.path for e in entries if e.is_dir(follow_symlinks=False)]
            except OSError:  # gone since it was watched: its parent's event says so
                continue

    def _watch(self, path: str, index: int) -> bool:
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(path), _MASK | IN_EXCL_UNLINK)
        if wd >= 0:
            self.dirs[wd] = chr(index) + path[len(self.tops[index]) :]
            return True
        if ctypes.get_errno() not in (errno.ENOENT, errno.ENOTDIR):  # gone or replaced: its parent says so
            self._complete, self._refused = False, True
        return False

    def _read(self) -> dict[str, set[str]] | None:
        """The names of the events queued so far, by folder; None when one of them says the answer may be
        incomplete."""
        found: dict[str, set[str]] = {}
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return found if self._complete else None
            for wd, mask, name in decoded(data):
                self._event(wd, mask, name, found)

    def _event(self, wd: int, mask: int, name: bytes, found: dict[str, set[str]]) -> None:
        if mask & (IN_Q_OVERFLOW | IN_MOVE_SELF) or mask & IN_ISDIR and mask & IN_MOVED_FROM:
            self._complete = False  # lost events, or a folder renamed: the paths below it are stale
            return
        short = self.dirs.get(wd)
        if short is None:
            return
        index = ord(short[0])
        folder = self.tops[index] + short[1:]
        if mask & (IN_DELETE_SELF | IN_IGNORED):  # removed (once empty): its parent's event names it
            del self.dirs[wd]
            if folder in self.tops:  # no parent watched: made again, it would go unseen
                self._complete = False
            return
        entry = os.fsdecode(name)
        path = os.path.join(folder, entry)
        if self.skip(path):
            return
        found.setdefault(folder, set()).add(entry)
        if mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO):  # new: watched, and listed whole by the caller
            self._watch_tree(index, path)
