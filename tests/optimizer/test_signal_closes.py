"""A signal as the daemon closes a descriptor of its own: the run's `Interrupted`, never EBADF.

The signal handler raises `Interrupted` from the first call to return after the signal; one raised as
`os.close` returned, before the holder forgot the number, had the cleanup of the unwinding run (the session
closing its guard and its locks) close it again: EBADF instead of exit 130, or another thread's file closed
under it. Here the signal is sent from a profile hook as `os.close` returns inside the close, so it lands in
that window every time; the holders now forget the number first.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, sys
from pathlib import Path
from autoresearch.optimizer import signals
from autoresearch.optimizer.experiment.busy import CheckoutClaim
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.guard.fswatch import Watcher
from autoresearch.plumbing.errors import Interrupted

def at_close(frame, event, arg):
    if event == "c_return" and arg is os.close:
        sys.setprofile(None)
        os.kill(os.getpid(), signal.SIGTERM)  # raised at the next call's return: os.close's

root = Path(sys.argv[2])
if sys.argv[1] == "guard":
    held = Watcher([str(root)], lambda path: False, str(root / "sentinel"))
    close = held.close
elif sys.argv[1] == "lock":
    held = Lock(root / "lock")
    held.acquire("exp")
    close = held.release
else:
    held = CheckoutClaim(root / "claim")
    held.take("exp", root)
    close = held.release
signals.install()
try:
    try:
        sys.setprofile(at_close)
        close()
    finally:
        close()  # as the unwinding run's cleanup does
    print("went on")
except Interrupted:
    print("interrupted")
"""


@pytest.mark.parametrize("holder", ["guard", "lock", "claim"])
def test_a_signal_as_a_descriptor_is_closed_interrupts_without_closing_it_twice(tmp_path, holder):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, holder, str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "interrupted\n", done.stderr
