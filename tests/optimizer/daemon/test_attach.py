"""`run` in a terminal follows a daemon: `d` (or SIGUSR1) leaves it running, Ctrl-C stops it."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios

import pyte
import pytest

from autoresearch.optimizer.experiment.lockfile import holder
from tests.helpers.repos import GIT_ENV
from tests.helpers.scenario import iterations, scenario_repo, scores, state, wait_for

ROWS = 200  # tall enough that nothing scrolls off the emulated screen
PLAN = {
    2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=1) + "# longer\n"}},
}


class Terminal:
    """`autoresearch run` on a real pseudo-terminal, as a person types into it."""

    def __init__(self, repo, command: list[str] | None = None, env: dict | None = None, columns: int = 80):
        self.master, slave = pty.openpty()
        self.columns = columns
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, columns, 0, 0))
        self.proc = subprocess.Popen(
            command or [sys.executable, "-m", "autoresearch.optimizer", "run"],
            cwd=repo,
            env={**os.environ, **GIT_ENV, **(env or {})},
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # the pty becomes its terminal
        )
        os.close(slave)
        self.seen = b""

    def read_until(self, text: bytes) -> None:
        def arrived() -> bool:
            try:
                self.seen += os.read(self.master, 65536)
            except OSError:
                pass
            return text in self.seen

        os.set_blocking(self.master, False)
        wait_for(arrived)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def screen(self) -> pyte.Screen:
        """What the person sees: everything read so far drawn by a terminal emulator of this size."""
        screen = pyte.Screen(self.columns, ROWS)
        pyte.ByteStream(screen).feed(self.seen)
        return screen


def lock(repo):
    return repo / ".autoresearch/runs/exp/_autoresearch/lock"


DETACH = {
    "the d key": lambda term: term.type(b"d"),
    "SIGUSR1": lambda term: os.kill(term.proc.pid, signal.SIGUSR1),  # the README's way for whoever cannot type
}


@pytest.mark.parametrize("detach", sorted(DETACH))
def test_d_or_sigusr1_hands_the_running_loop_to_the_background(tmp_path, detach):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, PLAN, extra_files={".gitignore": "waiting\ngate\n"}
    )
    term = Terminal(repo)
    term.read_until(b"press d to detach")
    wait_for(lambda: (repo / "waiting").exists())  # cycle 2's eval is running
    DETACH[detach](term)
    assert term.proc.wait(timeout=30) == 0
    term.read_until(b"goes on in the background")
    daemon = holder(lock(repo))
    assert daemon is not None and daemon != term.proc.pid
    (repo / "gate").touch()
    wait_for(lambda: holder(lock(repo)) is None)
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop"]  # no cycle was lost
    assert state(repo)["status"] == "finished"


def test_ctrl_c_stops_the_loop_and_exits_130(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, PLAN, extra_files={".gitignore": "waiting\ngate\n"}
    )
    term = Terminal(repo)
    term.read_until(b"press d to detach")
    wait_for(lambda: (repo / "waiting").exists())
    term.type(b"\x03")
    assert term.proc.wait(timeout=30) == 130
    term.read_until(b"interrupted (Ctrl-C); the artifact was restored to HEAD")
    assert b"SIGTERM" not in term.seen
    assert holder(lock(repo)) is None
    assert (repo / "prompt.md").read_text() == scores(a=0)
    assert state(repo)["stop_reason"] == "interrupted"
