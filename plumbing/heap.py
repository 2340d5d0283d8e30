"""Memory the process freed, given back to the system: glibc's `malloc_trim`, once a cycle.

A cycle allocates and frees a few MiB (records read, results parsed, git objects). glibc keeps what is
freed in its arenas and returns pages only from the top of the heap: free pages left between live
allocations stayed resident, and a daemon's resident set climbed about 11 KiB a cycle while the memory in
use did not (bench/run_memory.py; `mallinfo2` showed it as free bytes inside the arenas). `malloc_trim(0)`
returns every whole free page of every arena. Where the C library is not glibc, nothing is done.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache


@cache
def _trim() -> Callable[[int], int] | None:
    try:  # glibc by its soname: find_library would start ldconfig to look
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # another C library (musl, macOS)
        return None
    return trim


def give_back() -> None:
    """Return the heap's free pages to the system (a millisecond or two; once a cycle)."""
    trim = _trim()
    if trim is not None:
        trim(0)
