"""The reaper's watcher process (see `reaper`): reads the groups a process started from a pipe, and ends those
still running once the pipe closes, that is once the process is gone.

Run by path as `python -I -S watcher.py FD PID`: the standard library alone, no site-packages, no package of
ours. It starts beside every process of ours that runs a command (each `run`, daemon, eval and Ray worker), and
as `python -m autoresearch.plumbing.reaper` it cost twice the CPU of this start (the interpreter's site, our
package's `__init__`, `subprocess` and `threading` for the parent's side).
"""

from __future__ import annotations

import os
import signal
import sys
import time

GRACE_S = 5.0


def main(fd: int) -> None:
    """Fork away from the launcher (which exits at once), then watch."""
    if os.fork():
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    groups: set[int] = set()
    with os.fdopen(fd, "r") as pipe:
        for line in pipe:
            pgid = int(line[1:])
            if line.startswith("+"):
                groups.add(pgid)
            else:
                groups.discard(pgid)
    end(groups)


def end(groups: set[int]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        groups = {pgid for pgid in groups if _signal(pgid, sig)}
        deadline = time.monotonic() + GRACE_S
        while groups and sig == signal.SIGTERM and time.monotonic() < deadline:
            time.sleep(0.05)
            groups = {pgid for pgid in groups if _signal(pgid, 0)}


def _signal(pgid: int, sig: int) -> bool:
    """Whether the group was still there."""
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


if __name__ == "__main__":
    main(int(sys.argv[1]))
