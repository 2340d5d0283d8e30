"""Running the loop detached: spawn it in its own session, confirm it started, wait for it to go.

The detached process is an ordinary `autoresearch run --daemon`: it holds the
experiment lock and writes state.json like a foreground run, so `status`,
`stop` and a restarted run treat both alike.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from autoresearch.optimizer.daemon import launch
from autoresearch.optimizer.experiment.lockfile import holder
from autoresearch.plumbing.paths import ExperimentPaths, SchedulePaths

POLL_S = 0.05


def spawn(args: list[str], cwd: Path, log: Path) -> subprocess.Popen:
    """`autoresearch ARGS` in a new session (see autoresearch.optimizer.daemon.launch: only our code runs in it), stdin from
    /dev/null, output appended to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        return subprocess.Popen(
            launch.argv(*args),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
            env={**launch.env(), "PYTHONUNBUFFERED": "1"},
        )


def wait_started(proc: subprocess.Popen, paths: ExperimentPaths | SchedulePaths, timeout_s: float = 60.0) -> int | None:
    """None once the daemon holds the lock and says it is running; its exit code if it died first."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            return code
        if holder(paths.lock) == proc.pid:
            return None
        time.sleep(POLL_S)
    return None


def wait_gone(lock: Path, on_wait: Callable[[], object] | None = None, every_s: float = 30.0) -> None:
    """Block until nobody holds the lock; `on_wait()` is called every `every_s` seconds."""
    last = time.monotonic()
    while holder(lock) is not None:
        if on_wait and time.monotonic() - last >= every_s:
            on_wait()
            last = time.monotonic()
        time.sleep(POLL_S)


def last_error(log: Path) -> str | None:
    """The one-line error a daemon that died at start printed (its stderr is the log file)."""
    if not log.exists():
        return None
    for line in reversed(log.read_text(encoding="utf-8", errors="replace").splitlines()[-200:]):
        if line.startswith("autoresearch: "):
            return line.removeprefix("autoresearch: ")
    return None
