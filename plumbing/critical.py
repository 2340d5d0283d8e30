"""Blocks of the main thread in which SIGTERM and SIGINT wait for the block to end.

The handler the daemon installs (autoresearch.optimizer.signals) asks `hold` first: inside a
block the signal is remembered, and the handler is called again when the
outermost block ends. The subprocess helper uses a block from fork until the
child is owned, the daemon uses one around each decision and each git command.
Signal handlers only ever run in the main thread, so only its blocks count.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_held: list[int] = []
_depth = 0


def hold(signum: int) -> bool:
    """For a signal handler: True when the signal was set aside until the current block ends."""
    if _depth:
        _held.append(signum)
        return True
    return False


def stopping() -> bool:
    """Whether a signal is set aside until the current block ends: a wait inside the block (a lock another
    holds, retried as git retries it) gives up rather than hold the stop back."""
    return bool(_held)


@contextmanager
def critical() -> Iterator[None]:
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if not _depth and _held:  # (also when the block fails: the signal is not lost)
            signum = _held.pop()
            _held.clear()
            handler = signal.getsignal(signum)
            if callable(handler):
                handler(signum, None)
