"""Ends the commands a process started when that process dies, however it dies.

`process.run` starts every command in a session of its own, out of reach of the terminal and of its parent's
process group, and ends it itself on any exception. A SIGKILL (kill -9, the OOM killer, Ray killing a worker
whose job ended, 100 ms after its SIGTERM) runs no Python code: the command would go on, a coding agent
spending the user's API budget for minutes with no one to read its result.

So the first command a process starts also starts a watcher (`python -I -S watcher.py FD PID`, PID being the
process it watches), in a session of its own. The process tells it each group it starts and
each that ended, over a pipe only the process holds open. When the pipe closes, the process is gone: the watcher
sends SIGTERM to the groups still running, SIGKILL to what is left after a grace period, and exits.

The watcher is not a child of the process it watches: it forks at once and its first process exits. A Ray
worker that exits kills its direct children (RAY_kill_child_processes_on_worker_exit, on by default), not their
children: a direct child, the watcher would die with the shell of `sh -c 'python agent.py'`, and leave the
agent running.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

WATCHER = Path(__file__).with_name("watcher.py")  # run by path: the standard library alone (see watcher.py)

_lock = threading.Lock()
_pipe: int | None = None  # the write end, held by this process only (not inherited by the commands it starts)
_owner = 0  # the pid that started the watcher: a forked child starts its own
_launcher: subprocess.Popen[bytes] | None = None  # the watcher's launcher, started by `start` and not yet waited for
_generation = 0  # watchers started afresh: a thread whose write met a dead one writes to the next


def start() -> None:
    """Start the watcher without waiting for it: a process about to run commands calls it first, so the
    watcher's start-up (an interpreter's) runs while the process does its own set-up (`eval` reading its
    file), rather than while every worker of its pool waits on the first command's `ready`."""
    global _pipe, _owner, _launcher
    with _lock:
        if _pipe is None or _owner != os.getpid():
            (_pipe, _launcher), _owner = _start(), os.getpid()


def ready() -> None:
    """Start the watcher before the first command, not once it runs: a process SIGKILLed while its watcher was
    still starting (Ray kills an interrupted job's workers at once) would leave that command running unwatched.
    What is left is the moment between the command's start and `watch`, a few statements later. A watcher
    `start` launched is waited for here: it has left the process (forked away) before any command starts."""
    global _pipe, _owner, _launcher
    with _lock:
        if _pipe is None or _owner != os.getpid():
            (_pipe, _launcher), _owner = _start(), os.getpid()
        if _launcher is not None:
            _launcher.wait()
            _launcher = None


def watch(pgid: int, running: Callable[[], set[int]]) -> None:
    """A group started: end it if this process dies. `running()` is every group to watch, given to a watcher
    started afresh (the first, or one after the old one was killed)."""
    _tell(f"+{pgid}\n", running)


def forget(pgid: int, running: Callable[[], set[int]]) -> None:
    """A group ended (and was waited for): its id may be reused. `running()` no longer holds it."""
    _tell(f"-{pgid}\n", running)


def _tell(line: str, running: Callable[[], set[int]]) -> None:
    """Written without the lock while a watcher runs: a line shorter than PIPE_BUF goes into the pipe whole,
    whoever else writes to it, and 32 threads of an eval each holding the lock across a write (and across
    taking the GIL back after it) queued behind one another, a third of their time. The lock is for starting
    a watcher afresh; the pipe keeps its descriptor's number across watchers (the new one `dup2`ed onto it),
    so a thread never writes to a number the process has reused for another file."""
    seen = _generation
    if _pipe is not None and _owner == os.getpid():
        try:
            os.write(_pipe, line.encode())
            return
        except OSError:  # the watcher was killed: another is started under the lock
            pass
    with _lock:
        if _pipe is not None and _owner == os.getpid():
            if _generation != seen:  # another thread has started the next watcher meanwhile
                try:
                    os.write(_pipe, line.encode())
                    return
                except OSError:
                    pass
        elif line.startswith("-"):  # nothing to forget in a watcher that never heard of it
            return
        _restart(line, running)


def _restart(line: str, running: Callable[[], set[int]]) -> None:
    """Under the lock: a watcher started afresh, told every group running (with `line`'s, a `+`)."""
    global _pipe, _owner, _generation
    for _ in range(2):
        write, launcher = _start()
        if _pipe is not None and _owner == os.getpid():
            os.dup2(write, _pipe, inheritable=False)
            os.close(write)
        else:
            _pipe, _owner = write, os.getpid()
        _generation += 1
        groups = running() | ({int(line[1:])} if line.startswith("+") else set())
        try:
            os.write(_pipe, "".join(f"+{pgid}\n" for pgid in groups).encode())
            return
        except OSError:  # the new watcher died too (or never forked): one more try
            continue
        finally:  # the groups are in the pipe: now the watcher is forked away from us
            launcher.wait()


def _start() -> tuple[int, subprocess.Popen[bytes]]:
    """The pipe's write end, and the launcher that forks the watcher and exits: waited for once the groups are
    written, since they wait in the pipe and the watcher reads them even if this process dies first."""
    read, write = os.pipe()
    try:
        launcher = subprocess.Popen(
            [sys.executable, "-I", "-S", str(WATCHER), str(read), str(os.getpid())],
            pass_fds=[read],
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    finally:
        os.close(read)
    return write, launcher


def _forked() -> None:
    """A forked child holds a copy of the parent's write end: close it, or the parent's death goes unseen (and
    a lock another thread held at the fork stays held in the child)."""
    global _pipe, _lock, _launcher
    _lock = threading.Lock()
    _launcher = None  # the parent's child, not ours to wait for
    if _pipe is not None:
        os.close(_pipe)
        _pipe = None


os.register_at_fork(after_in_child=_forked)
