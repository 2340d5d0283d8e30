"""Write into a folder that nearly always exists, making it only when it does not.

The daemon writes into its results folder several times a cycle; a `mkdir(parents=True, exist_ok=True)`
before each write was a system call (and pathlib's work) that fails with EEXIST on every cycle but the
first. Trying the write first and making the folder only when the kernel says a part of the path is missing
survives a mutator's `rm -rf .autoresearch` or `git clean -ffdx` exactly as before: the folder is made again
and the write tried once more.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def within(folder: Path, write: Callable[[], T]) -> T:
    """`write()`, which creates a file in `folder`; if the folder is missing, it is made and `write` called again."""
    try:
        return write()
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        return write()
