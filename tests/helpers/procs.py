"""Processes the tests start or watch: the daemon run in the background, and whether a pid has ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.helpers.repos import GIT_ENV


def daemon(repo: Path, *args: str, session: bool = False) -> subprocess.Popen:
    """`autoresearch ARGS` in the background (`session`: in a process group of its own, as a shell's job,
    so that a test can send it the terminal's Ctrl-C); its stderr captured."""
    return subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=session,
    )


def ended(pid: int) -> bool:
    """Gone, or a zombie nobody has reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def running(marker: str) -> list[int]:
    """The processes whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:  # it ended meanwhile
            continue
    return found


def survivors(marker: str) -> list[int]:
    """The processes still running with `marker`, ended here so that a failing test leaves none."""
    found = running(marker)
    for pid in found:
        os.kill(pid, signal.SIGKILL)
    return found
