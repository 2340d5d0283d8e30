"""SIGTERM and SIGINT as exceptions, held back while a decision or a git command is under way.

A commit followed by its iterations line must happen whole: inside
`critical()` (autoresearch.plumbing.critical) a signal is remembered and raised only when the
block ends.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

from autoresearch.plumbing.critical import critical, hold
from autoresearch.plumbing.errors import Interrupted

__all__ = ["critical", "end_started", "install"]
_raised = False
_left = ""  # what an interruption leaves, said after it


def _handler(signum: int, frame: FrameType | None) -> None:
    global _raised
    if _raised:  # already stopping: a second signal must not break the restore in progress
        return
    if hold(signum):
        return
    _raised = True
    how = "interrupted (Ctrl-C)" if signum == signal.SIGINT else f"interrupted by {signal.Signals(signum).name}"
    raise Interrupted(f"{how}; {_left}" if _left else how)


def install(left: str = "the artifact was restored to HEAD") -> None:
    """For a run, or another command that starts commands (`left`: what its interruption leaves, said with
    it): a process may run the loop again after an interrupted run (the Python API), so start afresh."""
    global _raised, _left
    _raised, _left = False, left
    signal.signal(signal.SIGTERM, _handler)
    signal.signal(signal.SIGINT, _handler)


def end_started() -> None:
    """End what a finished or interrupted run's threads still run: the commands it started (each in a session
    of its own, out of the terminal's reach) and its calls to a Ray cluster. Its threads waiting for them would
    otherwise hold the interpreter's exit (which joins them), or go on in a notebook, until they end."""
    process = sys.modules.get("autoresearch.plumbing.process")  # not loaded: this process started no command
    if process is not None:
        process.end_all()
    cluster = sys.modules.get("autoresearch.runs.executors.cluster")  # loaded only when the config chose ray
    if cluster is not None:
        cluster.end_calls()
