"""Replace a file whole: readers see the old content or the new, never a half-written one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from autoresearch.plumbing import folders


def write_text(path: Path, text: str, durable: bool = True) -> None:
    """`durable=False` skips the fsync: still atomic against a crash of the process, not a power cut."""
    write_bytes(path, text.encode("utf-8"), durable)


def write_bytes(path: Path, data: bytes, durable: bool = True, mode: int | None = None) -> None:
    """`mode`: the new file's (a login kept 0600), else as open() would make it."""
    write_chunks(path, (data,), durable, mode)


def write_chunks(path: Path, chunks: Iterable[bytes], durable: bool = True, mode: int | None = None) -> None:
    """As `write_bytes`, the content given in parts (never joined in memory)."""
    fd, tmp = folders.within(
        path.parent, lambda: tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    )
    try:
        os.fchmod(fd, 0o666 & ~_umask() if mode is None else mode)  # mkstemp makes 0600
        with os.fdopen(fd, "wb") as f:
            f.writelines(chunks)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@lru_cache(maxsize=1)
def _umask() -> int:
    """The process's umask, read once: reading it means setting it, so not on every write."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fresh(path: Path) -> BinaryIO:
    """A new, empty file at `path`, open for writing, made there by this call: whatever had that name (a
    leftover of a kill, or a symbolic link an unsandboxed mutator put at a name it can foresee, such as a
    restore's temporary file beside a record) is removed first, and the name is never followed, so the
    bytes never reach the file a link names (a link made again in between: FileExistsError, nothing written)."""
    path.unlink(missing_ok=True)
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644), "wb")
