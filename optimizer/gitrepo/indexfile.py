"""An index file read by libgit2 from its path (a saved copy of `.git/index` the guard compares with the live one).

pygit2's `Index(path)` raises on a file libgit2 cannot read (a split or sparse index, one a mutator wrote over)
before it has set the handle its destructor frees, so that destructor then failed too, and Python printed
"Exception ignored in: <function Index.__del__>" and an AttributeError traceback on the user's console, at
whatever moment the half-built object was collected. Reading through `read` raises the GitError alone.
"""

from __future__ import annotations

from pathlib import Path

import pygit2


class _IndexFile(pygit2.Index):
    """pygit2's Index, its destructor a no-op for an instance whose constructor failed (it holds no handle)."""

    def __del__(self) -> None:
        if "_index" in self.__dict__:
            super().__del__()


def read(path: str | Path) -> pygit2.Index:
    """The index stored at `path`; raises pygit2.GitError when libgit2 cannot read it (callers fall back to git,
    or treat it as changed), OSError when the file cannot be opened."""
    return _IndexFile(str(path))
