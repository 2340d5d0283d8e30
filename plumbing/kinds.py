"""What a path is, told by one lstat(2).

The loop asked `os.path.isdir(p) and not os.path.islink(p)` of the same few paths several times a cycle (the
guard's watched roots, its folder, the artifact): two system calls a path, a stat that followed a link and an
lstat that did not. One lstat answers both: a folder's mode is a folder's only when the path is no link. It
also reads the path once, where the two calls could each see another thing in its place (a folder swapped for
a link to one between them passed as a plain folder).
"""

from __future__ import annotations

import os
import stat


def mode(path: str | os.PathLike[str]) -> int | None:
    """The path's own mode (a link's, not its target's); None where there is nothing to read (absent, a parent
    that is no folder, a name the system refuses), as `os.path.isdir` and `os.path.islink` answer False there."""
    try:
        return os.lstat(path).st_mode
    except (OSError, ValueError):
        return None


def plain_folder(path: str | os.PathLike[str]) -> bool:
    """A folder, and not a link to one: `os.path.isdir(path) and not os.path.islink(path)` in one call."""
    found = mode(path)
    return found is not None and stat.S_ISDIR(found)


def plain_file(path: str | os.PathLike[str]) -> bool:
    """A regular file, and not a link to one: `path.is_file() and not path.is_symlink()` in one call."""
    found = mode(path)
    return found is not None and stat.S_ISREG(found)
