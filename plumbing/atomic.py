"""Replace a file whole: readers see the old content or the new, never a half-written one."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from autoresearch.plumbing import folders
from autoresearch.plumbing.errors import writing
from autoresearch.plumbing.surrogates import utf8


def write_text(path: Path, text: str, durable: bool = True) -> None:
    """`durable=False` skips the fsync: still atomic against a crash of the process, not a power cut. A lone
    surrogate in `text` (a test id or a file name quoted) is written as its escape (plumbing.surrogates)."""
    write_bytes(path, utf8(text), durable)


def write_bytes(path: Path, data: bytes, durable: bool = True, mode: int | None = None) -> None:
    """`mode`: the new file's (a login kept 0600), else as open() would make it."""
    write_chunks(path, (data,), durable, mode)


def write_chunks(path: Path, chunks: Iterable[bytes], durable: bool = True, mode: int | None = None) -> None:
    """As `write_bytes`, the content given in parts (never joined in memory)."""
    with writing(path):
        fd, tmp = folders.within(path.parent, lambda: made_beside(path))
        try:
            os.fchmod(fd, 0o666 & ~umask() if mode is None else mode)  # mkstemp makes 0600
            with os.fdopen(fd, "wb") as f:
                f.writelines(chunks)
                f.flush()
                if durable:
                    os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def made_beside(path: Path) -> tuple[int, str]:
    """A new file (mode 0600) in `path`'s folder, open for writing: its descriptor and name. The name is
    unforeseeable and the file made there by this call (O_EXCL: a symbolic link an unsandboxed mutator put
    at any name is never followed, the next name tried), so the bytes written to it reach no other file. A
    name near the kernel's limit is shortened in the temporary's (the suffixes must fit)."""
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:NAME_PART]}.", suffix=".tmp")


NAME_PART = 200  # characters of the file's name in its temporary's: with the rest, under NAME_MAX (255)


@lru_cache(maxsize=1)
def umask() -> int:
    """The process's umask, read once: reading it means setting it, so not on every write."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
