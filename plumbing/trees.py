"""Folders removed whole, with the daemon's signals held back meanwhile.

`shutil.rmtree`'s safe walk closes each folder's descriptor, then sets the flag its `finally` reads to know
whether to close it. SIGTERM or Ctrl-C (autoresearch.optimizer.signals) raise `Interrupted` from the first call
to return after they arrive, often that `os.close`, and the `finally` then closed the number a second time:
EBADF replaced the interruption (`run failed: [Errno 9] Bad file descriptor`, exit 1, about one run in a
hundred stopped as a sandboxed mutation ended, whose outbox and agent homes are removed then), and had another
thread opened a file under that number meanwhile, its file would have been closed under it. Held back
(`critical`), the signal is raised once the folder is gone. `tempfile.TemporaryDirectory` removes its folder
the same way: `temporary` is the same folder, removed here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from autoresearch.plumbing.critical import critical


def remove(path: str | os.PathLike[str], ignore_errors: bool = False) -> None:
    """`shutil.rmtree(path)`, a signal meanwhile raised when it returns."""
    with critical():
        shutil.rmtree(path, ignore_errors=ignore_errors)  # noqa: TID251 (the one call, held)


@contextmanager
def temporary(prefix: str | None = None, within: str | None = None) -> Iterator[str]:
    """`tempfile.TemporaryDirectory(prefix, dir=within)`'s folder (its removal makes what it cannot remove
    writable, and tries again), removed with a signal meanwhile held back."""
    folder = tempfile.TemporaryDirectory(prefix=prefix, dir=within)  # noqa: TID251 (removed here, held)
    try:
        yield folder.name
    finally:
        with critical():
            folder.cleanup()
