"""The one exception root of the project and the one table of exit codes.

Exit codes are a public contract (DESIGN.md, README): cron jobs and scripts act on them.
Every error we raise derives from `AutoresearchError` and carries its exit code, so the
CLI's boundary maps any of them with `exit_code_for`, wherever it was raised. `Interrupted`
is no error but the user's stop: a `BaseException`, as the `KeyboardInterrupt` it stands for,
with its exit code in the same table. The domain
errors (`autoresearch.runs.errors`, `autoresearch.mutators.errors`, `autoresearch.providers.errors`) live beside their code and
derive from this root: this module imports nothing of ours.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OK = 0
REGRESSION = 1
NO_IMPROVEMENT = 10
SAFETY_GATE = 20
INVALID_INPUT = 30
KEEPS_FAILING = 40
INTEGRITY = 50
INTERRUPTED = 130


class AutoresearchError(Exception):
    """The root: every error of ours, each class carrying the exit code the CLI ends with."""

    exit_code = INVALID_INPUT


class InvalidInput(AutoresearchError):
    """Config, eval file, result rows, artifact path, not a git repo, dirty artifact, experiment locked."""

    exit_code = INVALID_INPUT


class SafetyStop(AutoresearchError):
    """A safety gate stopped the run (the mutator kept touching files outside its scope)."""

    exit_code = SAFETY_GATE


class KeepsFailing(AutoresearchError):
    """The eval or the mutator failed too many times in a row."""

    exit_code = KEEPS_FAILING


class IntegrityError(AutoresearchError):
    """The repository or the experiment state is not what the daemon recorded."""

    exit_code = INTEGRITY


class NoRoom(IntegrityError, OSError):
    """A record could not be written: the disk is full, a quota or a file-size limit is reached, the disk
    failed, or this user may no longer write the file (`not_writable`). The run stops as after a crash (HEAD
    the last decision, whole lines only); the next `run`, with room again, resumes. Exit 50: the experiment's
    records are not all the daemon meant to write. An OSError too (with the errno it stands for), so that a
    caller that went on after a failed write still does.

    Its message ends with what to do once there is room: by default `run` resumes; a run that a stop rule had
    already ended does not resume, and says what does instead (`ending`, autoresearch.optimizer.cycle.loop)."""

    path: Path
    cause: str  # the system's words: "No space left on device"

    def ending(self, then: str) -> NoRoom:
        """The same error, its message ending with `then` instead, and its cause the same failed write: a
        traceback or a log of it shows which write failed and how."""
        again = _no_room(self.path, self.cause, self.errno, then)
        again.__cause__ = self.__cause__
        return again


# full (ENOSPC), over a quota (EDQUOT) or a file-size limit (EFBIG), the disk failing (EIO), mounted read-only
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Within the block, an OSError of a disk with no room for `path` becomes `NoRoom` naming it: one line and
    exit 50 at the CLI, not a traceback (a write on a descriptor names no file of its own)."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in NO_ROOM:
            raise
        raise _no_room(path, str(exc.strerror), exc.errno, "then `run` resumes") from exc


def read_only(path: Path) -> NoRoom:
    """What the first write in `path`, on a mount that is read-only, raises: for a check made before any write."""
    return _no_room(path, os.strerror(errno.EROFS), errno.EROFS, "then `run` resumes")


ROOM_PROBE = 64 * 1024  # bytes: more than a failed command's last words, less than any disk with room to work


def require_room(folder: Path, then: str) -> None:
    """`NoRoom` naming `folder` when `ROOM_PROBE` bytes cannot be written there (the probe removed): after a
    command whose output goes there failed, whether the full disk is why. A command cut short by a full disk
    fails as any other would (its output, the reason included, with no room to be written), and counting that
    as its own failure ended the run as if it kept failing (exit 40) instead of for want of room (50)."""
    probe = folder / f".autoresearch-room-{os.getpid()}"
    try:
        with writing(folder), open(probe, "wb") as file:
            file.write(bytes(ROOM_PROBE))
    except NoRoom as exc:
        raise _no_room(folder, exc.cause, exc.errno, then) from None
    except OSError:  # the folder gone, or not ours to write: nothing to tell about its disk (the eval's error stands)
        return
    finally:
        probe.unlink(missing_ok=True)


def not_writable(path: Path) -> NoRoom:
    """What a write to a record of the daemon's own raises when this user may not write it and cannot make it
    writable (another user's file, a folder without write access): exit 50, as for a full disk, one line
    naming the file and the fix; the run stops as after a crash, and resumes once the user can write it."""
    return _no_room(path, os.strerror(errno.EACCES), errno.EACCES, "then `run` resumes")


_FIXES = {
    errno.EROFS: "make it writable again",
    errno.EACCES: "give this user read and write access to it and its folder again (chown, chmod u+rw)",
}


def _no_room(path: Path, cause: str, number: int | None, then: str) -> NoRoom:
    fix = _FIXES.get(number or 0, "free some space")
    no_room = NoRoom(f"cannot write {path}: {cause}; {fix}, {then}")
    no_room.errno, no_room.path, no_room.cause = number, path, cause  # not strerror: OSError's str would show it
    return no_room


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM; raised from the signal handler so `finally` blocks restore the tree.

    Not an `Exception`: it is raised from whatever frame the main thread runs, library code included, and the
    first one makes the handler ignore the next (a second signal must not break the restore under way). Any
    `except Exception` it met on the way (logging's emit, a library's fallback, a cleanup that logs and goes
    on) swallowed it, and the daemon went on with SIGTERM ignored: only kill -9 could stop it. As with
    `KeyboardInterrupt`, only `finally`, `except BaseException` and `except Interrupted` see it."""

    exit_code = INTERRUPTED


def exit_code_for(exc: BaseException) -> int | None:
    """The exit code for an error we know, or None for a bug (which should show its traceback)."""
    if isinstance(exc, KeyboardInterrupt):
        return INTERRUPTED
    if isinstance(exc, (AutoresearchError, Interrupted)):
        return exc.exit_code
    return INTEGRITY if no_room(exc) else None


def no_room(exc: BaseException) -> NoRoom | None:
    """An OSError of a disk with no room, or mounted read-only, for the file it names, as `NoRoom`; None for
    any other. The loop's writes are wrapped in `writing`; this is for the boundary, so that one a start makes
    before its loop (a lock, daemon.log in a read-only results directory) is one line and exit 50 too."""
    if isinstance(exc, NoRoom) or not isinstance(exc, OSError) or exc.errno not in NO_ROOM:
        return None
    if not isinstance(exc.filename, (str, bytes)) or not exc.filename:  # a descriptor's write names no file
        return None
    return _no_room(Path(os.fsdecode(exc.filename)), str(exc.strerror), exc.errno, "then `run` resumes")
