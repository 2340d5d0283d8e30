"""SIGTERM and SIGINT as exceptions, held back while a decision is being written.

A commit followed by its iterations line must happen whole: inside
`critical()` a signal is remembered and raised only when the block ends.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

from optimizer.errors import Interrupted

_held: list[int] = []
_depth = 0
_raised = False


def _handler(signum, frame) -> None:
    global _raised
    if _raised:  # already stopping: a second signal must not break the restore in progress
        return
    if _depth:
        _held.append(signum)
        return
    _raised = True
    raise Interrupted(f"interrupted by {signal.Signals(signum).name}; the artifact was restored to HEAD")


def install() -> None:
    signal.signal(signal.SIGTERM, _handler)
    signal.signal(signal.SIGINT, _handler)


@contextmanager
def critical():
    global _depth
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    if not _depth and _held:
        signum = _held.pop()
        _held.clear()
        _handler(signum, None)
