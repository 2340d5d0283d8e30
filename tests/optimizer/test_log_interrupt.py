"""SIGTERM or Ctrl-C while the daemon writes a log line: the run stops, the interruption is not swallowed.

`logging` catches every exception a handler's emit raises and reports it on stderr; the signal handler raises
the run's `Interrupted` from whatever the main thread runs, a log line's formatting among the likeliest. A
swallowed one let the loop go on and every later signal pass for a repeat of the first (found by sending
SIGTERM to `autoresearch run` at random moments: one run went on to cycle 18,000). Here the signal is sent
from inside the formatting of a value, so it lands there every time. `logging` was one library among many
with an `except Exception` around code it calls back: `Interrupted` is a `BaseException` (as
`KeyboardInterrupt` is), which none of them catch; the last test lands the signal in another one.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, sys
from pathlib import Path
from autoresearch.optimizer import daemonlog, signals
from autoresearch.plumbing.errors import Interrupted

class Signalling:
    def __str__(self):
        os.kill(os.getpid(), signal.SIGTERM)  # the handler runs at the next bytecode: still inside the emit
        return "value"
    __repr__ = __str__

where = sys.argv[1]
if where == "library":  # reprlib.repr falls back to a placeholder on any Exception the repr raises
    import reprlib
    def hand_over(value):
        reprlib.repr(value)
else:
    def hand_over(value):
        log.info("event", value=value)
daemonlog.setup(Path(sys.argv[2]) if where == "file" else None, console=where == "console")
signals.install()
log = daemonlog.get()
try:
    hand_over(Signalling())
    for n in range(100):
        log.info("went on", n=n)
except Interrupted as exc:
    print("interrupted:", exc)
"""


@pytest.mark.parametrize("where", ["console", "file", "library"])
def test_a_signal_during_a_log_line_or_any_librarys_except_exception_interrupts_the_run(tmp_path, where):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, where, str(tmp_path / "daemon.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout == "interrupted: interrupted by SIGTERM; the artifact was restored to HEAD\n", done.stderr
    assert "Logging error" not in done.stderr
