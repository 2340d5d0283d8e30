"""The lock of an experiment (or a scheduler): an flock held for the life of the process.

The kernel drops an flock when its process dies, so a crashed daemon never
leaves a lock behind, and `holder` tells who runs an experiment more surely
than any pid written in state.json. Kept free of pydantic and git so that
`status` can import it and still answer fast.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import InvalidInput, writing
from autoresearch.plumbing.namelock import NameLock


def _holder(raw: bytes) -> str:
    try:
        info = json.loads(raw)
        return f"pid {info['pid']} since {info['since']}"
    except (ValueError, KeyError, TypeError):
        return "another process"


def holder(path: Path) -> int | None:
    """The pid holding the experiment lock, or None when nobody does (a stale state.json's pid
    is never trusted: the kernel drops an flock when its process dies)."""
    raw = _held(path)
    if raw is None:
        return None
    try:
        return int(json.loads(raw)["pid"])
    except (ValueError, KeyError, TypeError):
        return -1  # held, but the holder has not written its pid yet


def task(path: Path) -> str | None:
    """What the lock's holder does (`run`, `rollback`, `promote`); None when nobody holds it. A holder that
    wrote no task (an older version, or one that has not written yet) is taken for a run."""
    raw = _held(path)
    if raw is None:
        return None
    try:
        return str(json.loads(raw).get("task", "run"))
    except (ValueError, AttributeError):
        return "run"


def require_free(path: Path, experiment: str) -> None:
    """Refuse (exit 30) while a daemon runs the experiment, naming it and how to follow or stop it.

    Checked before anything reads the working tree: mid-cycle the artifact holds the daemon's
    candidate, which looks like uncommitted changes, and committing it would slip a candidate the
    daemon may still drop into the history."""
    who = held_by(path)
    if who is not None:
        raise InvalidInput(
            f"experiment '{experiment}' is locked by {who}, which is running it; its candidate may be in the working "
            f"tree, so commit nothing now: follow it with `autoresearch status {experiment}` or `autoresearch logs {experiment} -f`, "
            f"stop it with `autoresearch stop {experiment}`"
        )


def held_by(path: Path) -> str | None:
    """Who holds the lock, as `pid N since T`; None when nobody does."""
    raw = _held(path)
    return None if raw is None else _holder(raw)


def _held(path: Path) -> bytes | None:
    """What the holder wrote in the lock file (its pid and since when), or None when nobody holds it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return os.pread(fd, 4096, 0)
    finally:
        os.close(fd)
    return None


class Lock:
    """One loop per experiment. Holds an flock for the life of the process.

    With `keep` (a path under git's folder, see autoresearch.optimizer.experiment.vault) the lock is
    that file, and `path`, where `status` and the other commands look, is a hard link to it: a mutator
    that deletes `path` frees nothing (the next daemon finds `keep` locked), and `restore` links it back.
    """

    def __init__(self, path: Path, keep: Path | None = None):
        self.path = path
        self.keep = keep
        self._fd: int | None = None
        self._apart: int | None = None  # `path` locked on its own, where no hard link can be made
        self._info = b""  # what the holder wrote: its pid, since when, and its task
        self._name = NameLock(os.path.abspath(path))  # held even when a mutator deletes both files

    def acquire(self, experiment: str, task: str = "run") -> None:
        """`task` says what holds it: a loop (`run`), or a version command (`rollback`, `promote`) that
        `stop` must not mistake for a daemon (its SIGTERM would interrupt the command, or `serve`)."""
        fd = _take(self.keep or self.path, experiment)
        try:
            self._fd = fd
            if (pid := self._name.take()) is not None:  # its files were deleted under a daemon still running
                raise InvalidInput(
                    f"experiment '{experiment}' is locked by pid {pid or 'unknown'}; stop it first or wait"
                )
            if self.keep is not None:
                self._place(experiment)
        except BaseException:
            self.release()
            raise
        self._info = json.dumps({"pid": os.getpid(), "since": utc_now(), "task": task}).encode()
        self._write()

    def _write(self) -> None:
        for held in (self._fd, self._apart):
            if held is not None:
                with writing(self.path):
                    os.ftruncate(held, 0)
                    os.pwrite(held, self._info, 0)

    def _place(self, experiment: str) -> None:
        """`path` made the same file as `keep` (another experiment's daemon of an older version may hold
        the file there: refused); on another filesystem, locked on its own."""
        assert self.keep is not None and self._fd is not None
        if self.linked():
            return
        if os.path.lexists(self.path):
            os.close(_take(self.path, experiment))  # refused while someone holds it
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        try:
            os.link(self.keep, tmp)
        except OSError:  # another filesystem
            self._apart = _take(self.path, experiment)
            return
        os.replace(tmp, self.path)

    def linked(self) -> bool:
        """Whether `path` is still the file this lock holds."""
        if self._fd is None:
            return False
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return False
        held = os.fstat(self._apart if self._apart is not None else self._fd)
        return (st.st_dev, st.st_ino) == (held.st_dev, held.st_ino)

    def restore(self, experiment: str) -> bool:
        """Put `path` back when something deleted or replaced it (a mutator's `rm -rf` of the results
        directory); True when it had to."""
        if self.keep is None or self._fd is None or self.linked():
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        apart, self._apart = self._apart, None  # forgotten first: a signal as os.close returns must not close it twice
        if apart is not None:
            os.close(apart)
        self.path.unlink(missing_ok=True)
        self._place(experiment)
        self._write()
        return True

    def release(self) -> None:
        self._name.release()
        held, self._fd, self._apart = (self._fd, self._apart), None, None  # forgotten first, as in `restore`
        for fd in held:
            if fd is not None:
                os.close(fd)

    def __enter__(self) -> "Lock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _take(path: Path, experiment: str) -> int:
    """`path` opened and locked for this process, or refused (exit 30) naming who holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(os.pread(fd, 4096, 0))
        os.close(fd)
        raise InvalidInput(f"experiment '{experiment}' is locked by {holder}; stop it first or wait") from None
    return fd
