"""A scratch folder for one command, removed cheaply: the hot path of a `cli` target runs one per test.

`tempfile.TemporaryDirectory` removes its folder with `shutil.rmtree`, whose symlink-safe walk opens
the folder, lists it and stats every entry before each unlink; for a folder of a few flat files (the
prompt, the answer, the command's logs) a listing and one unlink each does the same work in a few
system calls. Anything else (a subfolder the command made, a file it made read-only) goes to
`rmtree` as before.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.plumbing import owned, trees


@contextmanager
def scratch(prefix: str) -> Iterator[Path]:
    """A new private folder under the temporary directory (in this process's own, swept once it is killed:
    autoresearch.plumbing.owned), removed with all it holds on the way out."""
    path = tempfile.mkdtemp(prefix=prefix, dir=owned.folder())
    try:
        yield Path(path)
    finally:
        remove(path)


def remove(path: str) -> None:
    """The folder's files unlinked (never followed: a symlink is unlinked itself), then the folder."""
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                os.unlink(entry.path)
        os.rmdir(path)
    except OSError:  # a subfolder (unlink says EISDIR), a file already gone, anything unusual: the careful walk
        trees.remove(path, ignore_errors=True)
