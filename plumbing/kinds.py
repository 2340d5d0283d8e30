"""What a path is, told by one lstat(2).

The loop asked `os.path.isdir(p) and not os.path.islink(p)` of the same few paths several times a cycle (the
guard's watched roots, its folder, the artifact): two system calls a path, a stat that followed a link and an
lstat that did not. One lstat answers both: a folder's mode is a folder's only when the path is no link. It
also reads the path once, where the two calls could each see another thing in its place (a folder swapped for
a link to one between them passed as a plain folder).

Errors are answered as the calls replaced answered them: `os.path`'s take any error for "not there"; pathlib's
(`strict`) only a missing path, a file on the way, a link loop, and raise any other (a name too long; EACCES, a
folder on the way the process may not search), so a look that stopped there still stops.
"""

from __future__ import annotations

import errno
import os
import stat

_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # pathlib's `_IGNORED_ERRNOS` (Python 3.11)


def mode(path: str | os.PathLike[str], strict: bool = False) -> int | None:
    """The path's own mode (a link's, not its target's); None where there is nothing to read: absent, under a
    file, a name the system refuses (a NUL), or, unless `strict`, any other error (see the module)."""
    try:
        return os.lstat(path).st_mode
    except ValueError:
        return None
    except OSError as exc:
        if strict and exc.errno not in _ABSENT:
            raise
        return None


def plain_folder(path: str | os.PathLike[str], strict: bool = False) -> bool:
    """A folder, and not a link to one: `os.path.isdir(path) and not os.path.islink(path)` in one call (with
    `strict`, `path.is_dir() and not path.is_symlink()`)."""
    found = mode(path, strict)
    return found is not None and stat.S_ISDIR(found)


def plain_file(path: str | os.PathLike[str], strict: bool = False) -> bool:
    """A regular file, and not a link to one: `os.path.isfile(path) and not os.path.islink(path)` in one call
    (with `strict`, `path.is_file() and not path.is_symlink()`)."""
    found = mode(path, strict)
    return found is not None and stat.S_ISREG(found)
