"""The one way the project runs a command: in its own session, output to files, killed as a group.

Output goes to files rather than pipes so a chatty eval can never block on a
full pipe, and so the logs stay in the run directory for the user to read.
"""

from __future__ import annotations

import errno
import math
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from autoresearch.plumbing import faults, reaper
from autoresearch.plumbing.critical import critical
from autoresearch.plumbing.errors import INTERRUPTED, AutoresearchError
from autoresearch.plumbing.redact import redact
from autoresearch.plumbing.watcher import GRACE_S  # the same grace, whether the daemon or its watcher ends a group

PGID_SUFFIX = ".pgid"

# the process groups `run` started that are still running, for `end_all`; and whether new ones are refused
_running: set[int] = set()
_running_lock = threading.Lock()
_refusing = threading.Event()


class Refused(AutoresearchError):
    """A command was to start while the daemon is ending the ones it runs (an interruption is unwinding).

    The threads being wound down raise it and their waiter drops it for the error that is ending the run;
    should one ever reach the CLI, the run was ending, so it ends as interrupted (130), not as a bug."""

    exit_code = INTERRUPTED


@dataclass(frozen=True)
class Completed:
    returncode: int | None  # None when it was killed for its timeout
    stdout: str
    stderr: str
    duration_s: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def run(
    command: str | list[str],
    *,
    cwd: Path,
    log_prefix: Path | None,
    timeout_s: float | None = None,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
) -> Completed:
    """Run `command` (a shell string or an argv list); stdout/stderr go to `<log_prefix>.stdout.log`/`.stderr.log`.

    Without a `log_prefix` they go to files in memory and no `.pgid` file is written: for a command run in a
    scratch folder removed after it (a `cli` target's, once per test), whose logs no one reads and whose pid
    file no restarted daemon would look for, three files made and removed in the temporary directory a test.

    `stdin`: the command's input, from a file in memory as its logs (a hook's JSON), else /dev/null.

    Any exception while waiting (Ctrl-C, SIGTERM turned into an exception, a
    timeout) kills the whole process group before it propagates, so no eval
    or mutator outlives the daemon. What is left in the group once the command
    has exited (a `&` of a mutator's, `server &`) is killed too: it would go on
    writing while the scope guard has already looked, and while the eval runs.
    """
    started = time.monotonic()
    proc: subprocess.Popen[bytes] | None = None
    out_path, err_path, pgid_path = _log_paths(log_prefix)
    with _log_file(out_path, "stdout") as out, _log_file(err_path, "stderr") as err, _input(stdin) as given:
        try:
            with critical():  # a signal between the fork and here waits: the child is never left unowned
                if _refusing.is_set():
                    raise Refused(f"not started, the run is ending: {redact(str(command))[:200]}")
                reaper.ready()
                environ = {**os.environ, **env} if env else None  # None: inherited, not copied for each command
                argv = _gated(command, cwd, environ, given)
                gate, go = os.pipe()
                try:
                    proc = _start(argv, cwd, environ, (gate, given), out, err)
                    faults.point("process.started")
                    with _running_lock:
                        _running.add(proc.pid)
                    reaper.watch(proc.pid, _groups)  # not under the lock: every thread's start and end takes it
                    if pgid_path is not None:  # lets a restarted daemon end what a crashed one left running
                        pgid_path.write_text(str(proc.pid))
                    _open(go)
                finally:
                    os.close(go)
            returncode: int | None = wait(proc, timeout_s)
            end_leftovers(proc)
        except subprocess.TimeoutExpired:
            assert proc is not None  # only its wait times out
            kill_group(proc)
            returncode = None
        except BaseException:
            if proc is not None:
                kill_group(proc)
            raise
        finally:
            if pgid_path is not None:
                pgid_path.unlink(missing_ok=True)
            if proc is not None:
                with _running_lock:
                    _running.discard(proc.pid)
                reaper.forget(proc.pid, _groups)
        outputs = [_output(f, path) for f, path in ((out, out_path), (err, err_path))]
    return Completed(returncode, outputs[0], outputs[1], time.monotonic() - started)


# Run first in the command's shell: wait for the daemon's go on stdin (the gate), then give the command its input
# (the file in memory `stdin` filled, else /dev/null).
# EOF without a go: the daemon died (or failed) before its watcher heard of the group, so the command never runs.
_GATE = "IFS= read -r _ || exit 137; exec <{}\n"


def _gated(command: str | list[str], cwd: Path, env: dict[str, str] | None, given: BinaryIO | None) -> list[str]:
    """`command` as a `sh -c` that starts it only once the daemon has told its watcher of the group.

    Between `Popen` and `reaper.watch` the group runs unwatched: a SIGKILL there (Ray ends a worker 100 ms after
    its SIGTERM) left the command and its children running for good. A shell command gets the gate before its
    text (the same `/bin/sh -c` as `shell=True`, no process more); a program is exec'd by the gate, found on the
    PATH here first, so that a missing one is still the `FileNotFoundError` its caller reports."""
    gate = _GATE.format("/dev/null" if given is None else f"/dev/fd/{given.fileno()}")  # dash: no &N past 9
    if isinstance(command, str):
        return ["/bin/sh", "-c", gate + command]
    return ["/bin/sh", "-c", gate + 'exec "$@"', "sh", _program(command[0], cwd, env), *command[1:]]


def _program(name: str, cwd: Path, env: dict[str, str] | None) -> str:
    """The file `name` runs, as `Popen` would find it (the PATH of the command's environment, or `cwd` for a path),
    else the error `Popen` raised: a path that is a folder or not executable is a `PermissionError`, as its exec's
    EACCES was, not a missing file."""
    if os.sep in name:
        path = cwd / name
        if path.exists() and (path.is_dir() or not os.access(path, os.X_OK)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), name)
        found = name if path.exists() else None
    else:  # a relative folder on the PATH (`node_modules/.bin`, an empty entry) is the command's, in `cwd`
        folders = (env if env is not None else os.environ).get("PATH", os.defpath).split(os.pathsep)
        found = shutil.which(name, path=os.pathsep.join(os.path.join(cwd, folder) for folder in folders))
    if found is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    return found


def _start(
    argv: list[str],
    cwd: Path,
    env: dict[str, str] | None,
    inputs: tuple[int, BinaryIO | None],
    out: BinaryIO,
    err: BinaryIO,
) -> subprocess.Popen[bytes]:
    """The gated command started in a session of its own, reading the gate (then its input, passed by its
    number: see `_gated`); our copy of the gate closed."""
    gate, given = inputs
    try:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=gate,
            stdout=out,
            stderr=err,
            start_new_session=True,
            pass_fds=() if given is None else (given.fileno(),),
        )
    finally:
        os.close(gate)


def _input(data: bytes | None) -> AbstractContextManager[BinaryIO | None]:
    """A command's input in a file in memory, read from its start; nullcontext when it has none."""
    if data is None:
        return nullcontext()
    given = _log_file(None, "stdin")
    given.write(data)
    given.seek(0)
    return given


def _open(go: int) -> None:
    """Let the gated command start. It may have died already (killed from outside): its exit code says so."""
    try:
        os.write(go, b"\n")
    except BrokenPipeError:
        pass


def wait(proc: subprocess.Popen[bytes], timeout_s: float | None) -> int:
    """The command's exit code, seen the moment it exits; `TimeoutExpired` after `timeout_s`.

    `Popen.wait` with a timeout polls, sleeping twice as long each time up to 50 ms: a command of 0.1 s was
    seen to end up to 50 ms late, a third of a short `cli` target's time. A pidfd (Linux 5.3) becomes
    readable when the process exits, so `poll` on it wakes at once; without one, `Popen.wait` as before."""
    if timeout_s is None:
        return proc.wait()
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # not Linux, or a kernel without pidfds
        return proc.wait(timeout=timeout_s)
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        if not poller.poll(math.ceil(timeout_s * 1000)):
            raise subprocess.TimeoutExpired(proc.args, timeout_s)
    finally:
        os.close(pidfd)
    return proc.wait()


def _log_paths(log_prefix: Path | None) -> tuple[Path | None, Path | None, Path | None]:
    """The stdout log, the stderr log and the pid file of a command logged under `log_prefix` (None: none)."""
    if log_prefix is None:
        return None, None, None
    log_prefix.parent.mkdir(parents=True, exist_ok=True)
    name = log_prefix.name
    return (
        log_prefix.with_name(name + ".stdout.log"),
        log_prefix.with_name(name + ".stderr.log"),
        log_prefix.with_name(name + PGID_SUFFIX),
    )


def _log_file(path: Path | None, name: str) -> BinaryIO:
    """The file a command's stream goes to: the log at `path`, or a file in memory (a memfd, never on a disk;
    elsewhere than Linux an unnamed temporary file). Either is a file: a chatty command never blocks on it."""
    if path is not None:
        return open(path, "w+b")
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create(name, os.MFD_CLOEXEC), "w+b")
    import tempfile  # not Linux: every process that runs a command would import it otherwise

    return tempfile.TemporaryFile()


def _output(file: BinaryIO, path: Path | None) -> str:
    """What the command wrote, read from the open file: a command (a mutator's `git clean -x`) may have
    deleted the log file, which then is written again."""
    file.seek(0)
    data = file.read()
    if path is not None and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return data.decode("utf-8", errors="replace")


def _groups() -> set[int]:
    """The groups running now, for a watcher started afresh."""
    with _running_lock:
        return set(_running)


def end_all() -> None:
    """SIGKILL every process group `run` started that is still running. Each command runs in a session of its
    own, out of reach of the terminal's Ctrl-C: an interrupted daemon ends those its other threads wait for
    (the tests of a runner, a candidate's eval), which would otherwise hold its exit until they end."""
    with _running_lock:
        groups = list(_running)
    for pgid in groups:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def ending() -> bool:
    """Whether the daemon is ending what it runs (inside `refusing`): work of its own that goes in steps (an
    LLM mutator's turns) stops at the next one."""
    return _refusing.is_set()


def pause(seconds: float) -> None:
    """Wait `seconds` (a retry's backoff), cut short once the daemon is ending what it runs: the thread then
    finds its next command refused instead of holding the daemon's exit for the rest of the wait."""
    _refusing.wait(seconds)


@contextmanager
def refusing() -> Iterator[None]:
    """No command starts while the block runs: threads being wound down would otherwise start their next one."""
    _refusing.set()
    try:
        yield
    finally:
        _refusing.clear()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, then SIGKILL what is left: after a grace period while the command runs, at once
    when it has exited; the command reaped either way. A member that ignores SIGTERM outlived the command
    otherwise, and the run: a sandbox's PID-namespace init does (its namespace's init takes no signal from
    outside it but SIGKILL), and `--die-with-parent` did not end one whose bwrap died, SIGTERMed as it started,
    before it had asked for that signal."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=GRACE_S)
            end_leftovers(proc)
            return
        except subprocess.TimeoutExpired:
            continue
    _reap(proc)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """The command, SIGKILLed, reaped without Popen's lock: a signal's exception raised inside Popen.wait between
    its lock's acquire and its `try` (CPython 3.11) leaves the lock taken, and every later wait (a run stopped
    by SIGTERM mid-eval) would block on it forever, the daemon with it."""
    try:
        _, status = os.waitpid(proc.pid, 0)
    except ChildProcessError:  # reaped already
        return
    proc.returncode = os.waitstatus_to_exitcode(status)


def end_leftovers(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL what is left of the process group of a command that has exited (a group outlives its
    leader while a member lives, so its id cannot have been reused)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def tail(text: str, limit: int = 300) -> str:
    """The end of a command's output on one line, for error messages, with secrets masked (before
    the cut, so that half a key is never shown, and before the lines are joined, so that a key of
    several lines is masked whole)."""
    flat = " ".join(redact(text).split())
    return flat if len(flat) <= limit else "…" + flat[-limit:]
