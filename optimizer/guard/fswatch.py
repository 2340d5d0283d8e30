"""Which paths changed since the last look: Linux inotify through libc (ctypes), one watch per directory.

The scope guard would otherwise stat every file of the repository twice a
cycle (50,000 in a node_modules). The kernel queues an inotify event before
the write that caused it returns, so once the mutator has exited (or its
in-process tool call has returned) every event it caused is in the queue.
`changed()` still opens a sentinel file in a watched directory for writing
(its close is an event; nothing is written) and reads until that event
arrives: the events are read in order, so everything before the sentinel has
been seen, and a watch that silently stopped working (the sentinel never
shows up) is noticed instead of trusted.

`changed()` returns None whenever the answer might be incomplete: the queue
overflowed, a watch could not be added (the `max_user_watches` limit), a
watched directory vanished or moved, or inotify is unavailable (not Linux).
The caller then walks the whole tree: slower, never wrong.
"""

from __future__ import annotations

import ctypes
import errno
import os
import select
import struct
from collections.abc import Callable, Iterator

from autoresearch.plumbing import kinds
from autoresearch.plumbing.errors import AutoresearchError

IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF = 0x400, 0x800
IN_Q_OVERFLOW, IN_IGNORED, IN_ISDIR = 0x4000, 0x8000, 0x40000000
IN_ONLYDIR, IN_DONT_FOLLOW, IN_EXCL_UNLINK = 0x01000000, 0x02000000, 0x04000000
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000
MASK = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
)
_EVENT = struct.Struct("iIII")
SENTINEL = ".guard-sentinel"


class Unavailable(AutoresearchError):
    """inotify cannot watch this tree; the caller walks it instead (caught there: it never ends a run)."""


def libc() -> ctypes.CDLL:
    """The C library this process already has (the program's own symbols): `ctypes.util.find_library` would
    start `ldconfig -p` in a subprocess, a fork of the daemon, to look for it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError as exc:
        raise Unavailable(f"no C library to call: {exc}") from None
    if not hasattr(libc, "inotify_init1"):
        raise Unavailable("no inotify in this libc")
    return libc


def decoded(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """Each event in what one read of an inotify descriptor returned: its watch, its mask, and the name."""
    offset = 0
    while offset < len(data):
        wd, mask, _, size = _EVENT.unpack_from(data, offset)
        yield wd, mask, data[offset + _EVENT.size : offset + _EVENT.size + size].rstrip(b"\0")
        offset += _EVENT.size + size


class Watcher:
    """Watches every directory under `roots` that `skip` does not exclude; `sentinel_dir` is watched
    too (it holds the sentinel) but its changes are not reported."""

    def __init__(self, roots: list[str], skip: Callable[[str], bool], sentinel_dir: str):
        self._libc = libc()
        self.skip = skip
        self.fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise Unavailable(os.strerror(ctypes.get_errno()))
        self.dirs: dict[int, str] = {}
        self.wds: dict[str, int] = {}
        self.inodes: dict[int, tuple[int, int]] = {}  # (device, inode) each watch was added on
        self.pending: set[str] = set()
        self.complete = True
        self.sentinel_dir = sentinel_dir
        self.roots = roots
        try:
            os.makedirs(sentinel_dir, exist_ok=True)
            self._watch_dir(sentinel_dir)
            self._watch_roots(report=False)
        except OSError as exc:  # no folder for the sentinel (a file in the way): its descriptor is not left open
            self.close()
            raise Unavailable(f"no folder for the sentinel at {sentinel_dir}: {exc}") from None
        except Unavailable:
            self.close()
            raise

    def close(self) -> None:
        fd, self.fd = self.fd, -1  # forgotten first: a signal raised as os.close returns must not close it twice
        if fd >= 0:
            os.close(fd)

    def _watch_roots(self, report: bool = True) -> None:
        """Each root's tree; a root that is a file, or not there yet (`.git/hooks`), through its parent. A root
        watched already is not looked at: its removal or move is an event of its own watch, which drops it
        (`_read`), and the look that read that event watches the root anew here, before it answers."""
        for root in self.roots:
            if root in self.wds:  # no lstat: twice a cycle for each root, every one of them a plain folder
                continue
            if kinds.plain_folder(root):  # one lstat a root, where isdir and islink made two
                self._watch_tree(root)
                if report:  # it came back, or came at last: whatever it holds is new
                    self.pending.add(root)
            elif os.path.dirname(root) not in self.wds and os.path.isdir(os.path.dirname(root)):
                self._watch_dir(os.path.dirname(root))

    def _watch_dir(self, path: str) -> None:
        wd = self._libc.inotify_add_watch(
            self.fd, os.fsencode(path), MASK | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK
        )
        if wd < 0:
            err = ctypes.get_errno()
            if err in (errno.ENOENT, errno.ENOTDIR):  # gone, or replaced by a file, since it was listed
                self.pending.add(path)
                return
            raise Unavailable(f"cannot watch {path}: {os.strerror(err)}")
        renamed = self.dirs.get(wd)  # the folder was watched under another name: it moved here
        if renamed is not None and renamed != path and self.wds.get(renamed) == wd:
            del self.wds[renamed]
        self.dirs[wd] = path
        self.wds[path] = wd
        try:
            st = os.lstat(path)
        except OSError:
            self.pending.add(path)
            return
        self.inodes[wd] = (st.st_dev, st.st_ino)

    def _still_at(self, wd: int, path: str) -> bool:
        """The watched folder is the one at `path` now: a rename seen in its parent watched it under its new
        name before its own move event came."""
        try:
            st = os.lstat(path)
        except OSError:
            return False
        return self.inodes.get(wd) == (st.st_dev, st.st_ino) and not os.path.islink(path)

    def _watch_tree(self, root: str) -> None:
        if not kinds.plain_folder(root) or self.skip(root):
            return
        stack = [root]
        while stack:
            path = stack.pop()
            self._watch_dir(path)
            try:
                with os.scandir(path) as entries:
                    for entry in entries:
                        if entry.is_dir(follow_symlinks=False) and not self.skip(entry.path):
                            stack.append(entry.path)
            except OSError:
                self.pending.add(path)

    def changed(self) -> set[str] | None:
        """The paths changed since the last call (a directory stands for everything under it), or None
        when the watch may have missed something: walk everything then."""
        if self.fd < 0:
            return None
        sentinel = os.path.join(self.sentinel_dir, SENTINEL)
        try:  # opened for writing and closed, not truncated: its close is its event, and no inode is written
            os.close(os.open(sentinel, os.O_WRONLY | os.O_CREAT, 0o600))
        except OSError:  # its directory was removed or replaced: watch a new one, and walk this time
            self._renew_sentinel_dir()
            self.complete = False
            return self._drain()
        seen = False
        while not seen:
            ready, _, _ = select.select([self.fd], [], [], 5.0)
            if not ready:  # the sentinel's event never came: the watch is broken
                self.complete = False
                break
            seen = self._read(sentinel)
        return self._drain()

    def forget(self) -> bool:
        """Drop what is queued now, without the sentinel's round trip (an open, a close, a wait): enough for
        this process's own writes, whose events the kernel queued before each returned. True when nothing
        was missed (no overflow, no folder left unwatched), so that the next `changed()` names what came after alone;
        that one still waits for its sentinel, and so notices a watch that stopped working. A root watched
        again here (removed or moved, then made again) is named by that look: nothing says what its new
        folder held before its watch."""
        if self.fd < 0:
            return False
        sentinel = os.path.join(self.sentinel_dir, SENTINEL)
        while select.select([self.fd], [], [], 0)[0]:
            self._read(sentinel)
        dropped = self._drain()
        if dropped is None:
            return False
        self.pending = {root for root in self.roots if root in dropped}
        return True

    def _renew_sentinel_dir(self) -> None:
        """The sentinel's folder lies in the results directory, where a mutator can write: whatever it
        put in its place (a file, a link) goes, so the next look has a sentinel again."""
        if (
            os.path.islink(self.sentinel_dir)
            or os.path.lexists(self.sentinel_dir)
            and not os.path.isdir(self.sentinel_dir)
        ):
            os.unlink(self.sentinel_dir)
        os.makedirs(self.sentinel_dir, exist_ok=True)
        try:
            self._watch_dir(self.sentinel_dir)
        except Unavailable:  # the next look walks again
            pass

    def _drain(self) -> set[str] | None:
        """What the events read so far named, once every root is watched again: a root whose watch a read
        dropped (removed, moved) or that came at last is watched before the answer, so its path, named, is
        read by the caller after its watch stands (anything made in it before is reported whole)."""
        try:
            self._watch_roots()
        except Unavailable:
            self.complete = False
        changed, complete = self.pending, self.complete
        self.pending, self.complete = set(), True
        return changed if complete else None

    def _read(self, sentinel: str) -> bool:
        """Read what is queued; True when the sentinel's event was among it. A write is several events (an open
        that truncates, a modify per write, a close): those after its first are dropped by their raw (watch,
        name) before a path is made of them, until a folder moves or comes (a watch may then name another). A
        folder's own removal or move is never one of them: its touch or chmod bore the same empty name."""
        seen = False
        try:
            data = os.read(self.fd, 1 << 20)
        except BlockingIOError:
            return False
        taken: set[tuple[int, bytes]] = set()
        for wd, mask, name in decoded(data):
            if mask & IN_Q_OVERFLOW:
                self.complete = False
                continue
            if mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED):  # never dropped as a repeat: a folder's own
                directory = self.dirs.get(wd)  # events share its empty name, a touch's or chmod's among them
                if directory is None:
                    continue
                taken.clear()
                self.pending.add(directory)
                if mask & IN_MOVE_SELF and self._still_at(wd, directory):
                    continue  # watched on under its new name: its later events must still be read
                self.dirs.pop(wd, None)
                self.inodes.pop(wd, None)
                if self.wds.get(directory) == wd:
                    del self.wds[directory]
                continue
            made = mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO)
            if not made and (wd, name) in taken:
                continue
            directory = self.dirs.get(wd)
            if directory is None:
                continue
            taken.add((wd, name))
            path = directory + os.sep + os.fsdecode(name) if name else directory  # no name: the folder's own (a chmod)
            if directory == self.sentinel_dir:
                seen = seen or path == sentinel
                continue
            if not made and path in self.pending:  # an earlier read's: asked about once
                continue
            if self.skip(path):
                continue
            self.pending.add(path)
            if made:
                taken.clear()
                try:  # a new directory: watch it, and report it whole (files may predate its watch)
                    self._watch_tree(path)
                except Unavailable:
                    self.complete = False
        return seen
