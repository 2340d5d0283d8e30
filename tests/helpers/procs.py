"""Processes the tests start or watch: the daemon run in the background, and whether a pid has ended."""

from __future__ import annotations

import os
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
