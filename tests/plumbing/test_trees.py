"""A signal while a folder is removed whole: the run's `Interrupted`, once the folder is gone, never EBADF.

`shutil.rmtree` closes each folder's descriptor, then sets the flag its `finally` reads to close it otherwise;
the daemon's signal handler raises `Interrupted` from the first call to return after the signal, and one
raised at that `os.close` had the `finally` close the number again (found by sending SIGTERM to `autoresearch
run` at random moments: `run failed: [Errno 9] Bad file descriptor`, exit 1, about one run in a hundred). Here
the signal is sent from a profile hook as `os.close` returns inside rmtree's walk, so it lands in that window
every time.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, sys
from autoresearch.optimizer import signals
from autoresearch.plumbing import scratch, trees
from autoresearch.plumbing.errors import Interrupted

def at_close(frame, event, arg):
    if event == "c_return" and arg is os.close and frame.f_code.co_name in ("rmtree", "_rmtree_safe_fd"):
        sys.setprofile(None)
        os.kill(os.getpid(), signal.SIGTERM)  # raised at the next call's return: os.close's, in rmtree

def fill(folder):
    for sub in ("a", "a/b", "c"):
        os.makedirs(os.path.join(folder, sub))
        open(os.path.join(folder, sub, "f"), "w").close()

signals.install()
made = []
try:
    with (scratch.scratch("t-") if sys.argv[1] == "scratch" else trees.temporary("t-")) as folder:
        made.append(str(folder))
        fill(folder)
        sys.setprofile(at_close)
    print("went on")
except Interrupted as exc:
    print("interrupted; removed:", not os.path.exists(made[0]))
"""


@pytest.mark.parametrize("how", ["scratch", "temporary"])
def test_a_signal_inside_a_folders_removal_interrupts_once_it_is_removed(how):
    done = subprocess.run([sys.executable, "-c", SCRIPT, how], capture_output=True, text=True, timeout=60)
    assert done.stdout == "interrupted; removed: True\n", done.stderr
