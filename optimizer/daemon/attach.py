"""`run` in a terminal: the loop runs as a daemon from the start, and the terminal follows it.

Because the loop is already detached, handing it over to the background
loses nothing: press `d` (or send SIGUSR1 to this process) and the prompt
comes back while the cycle in progress goes on. Ctrl-C stops the loop as
`stop --now` would, and the exit code is the loop's own.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import termios
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.optimizer.daemon.view import PlainView, view
from autoresearch.optimizer.daemonlog import new_lines
from autoresearch.plumbing.paths import ExperimentPaths

DETACH_KEY = b"d"
TICK_S = 0.1


class _Follow:
    def __init__(self, proc: subprocess.Popen, log: Path, offset: int, shown: PlainView):
        self.proc, self.log, self.offset, self.shown = proc, log, offset, shown
        self.detach = False

    def pump(self) -> None:
        """Show whatever the daemon logged since last time, rendered for people, and where the loop is."""
        lines, self.offset = new_lines(self.log, self.offset)
        for raw in lines:
            self.shown.line(raw)
        self.shown.tick()


def follow(proc: subprocess.Popen, paths: ExperimentPaths, offset: int, quiet: bool = False) -> int | None:
    """Follow the daemon until it exits (its exit code) or the user detaches (None)."""
    shown = view(quiet, paths.state)
    shown.line(f"following pid {proc.pid}: press d to detach (the run goes on), Ctrl-C to stop it")
    state = _Follow(proc, paths.log, offset, shown)
    previous_usr1 = signal.signal(signal.SIGUSR1, lambda *_: setattr(state, "detach", True))
    try:
        with _keys() as keys:
            while proc.poll() is None and not state.detach:
                try:
                    state.pump()
                    if (
                        keys(TICK_S) == DETACH_KEY
                    ):  # never `detach = ...`: that would undo a SIGUSR1 that came meanwhile
                        state.detach = True
                except KeyboardInterrupt:  # as Ctrl-C in a plain `run`: the daemon says "interrupted (Ctrl-C)"
                    os.kill(proc.pid, signal.SIGINT)  # it restores the tree and exits 130
        state.pump()
    finally:
        shown.close()
        signal.signal(signal.SIGUSR1, previous_usr1)
    return None if state.detach and proc.poll() is None else proc.wait()


@contextmanager
def _keys() -> Iterator[Callable[[float], bytes]]:
    """A function that waits up to `timeout` for one keypress (b"" if none); no echo, no Enter needed."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield lambda timeout: os.read(fd, 1) if select.select([fd], [], [], timeout)[0] else b""
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
