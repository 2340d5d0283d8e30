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
from autoresearch.plumbing.errors import InvalidInput


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
    """One loop per experiment. Holds an flock for the life of the process."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None

    def acquire(self, experiment: str, task: str = "run") -> None:
        """`task` says what holds it: a loop (`run`), or a version command (`rollback`, `promote`) that
        `stop` must not mistake for a daemon (its SIGTERM would interrupt the command, or `serve`)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(os.pread(fd, 4096, 0))
            os.close(fd)
            raise InvalidInput(f"experiment '{experiment}' is locked by {holder}; stop it first or wait") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "since": utc_now(), "task": task}).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "Lock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()
