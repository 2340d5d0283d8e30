"""Memory the process freed, given back to the system: glibc's `malloc_trim`, once every `EVERY` cycles.

A cycle allocates and frees a few MiB (records read, results parsed, git objects). glibc keeps what is
freed in its arenas and returns pages only from the top of the heap: free pages left between live
allocations stayed resident, and a daemon's resident set climbed about 11 KiB a cycle while the memory in
use did not (bench/run_memory.py; `mallinfo2` showed it as free bytes inside the arenas). `malloc_trim(0)`
returns every whole free page of every arena. Where the C library is not glibc, nothing is done.

Not after every cycle: a trim cost about 80 us, and the next cycle faulted back in the ~110 KiB it had just
returned, a few percent of a fast loop's own time (bench/loop_overhead.py). Once in `EVERY` cycles the pages
a cycle frees are mostly the ones the cycles before it freed and drew again, and what waits for the next trim
is at most `EVERY` cycles' growth, about 0.2 MiB (a night's cycles take minutes: the trim is nothing there).
Not once the resident set grew some amount either: memory freed in a lump leaves it where it was, and
glibc's count of its free bytes (`mallinfo2`, 14 us a call) would cost most of what the trim costs.
"""

from __future__ import annotations

import ctypes
import itertools
from collections.abc import Callable
from functools import cache

EVERY = 16
_calls = itertools.count(1)  # the calls so far: the process has one heap, and one loop gives it back


@cache
def _trim() -> Callable[[int], int] | None:
    try:  # glibc by its soname: find_library would start ldconfig to look
        trim: Callable[[int], int] = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # another C library (musl, macOS)
        return None
    return trim


def give_back() -> None:
    """After each cycle: every `EVERY`th call returns the heap's free pages to the system."""
    trim = _trim()
    if next(_calls) % EVERY == 0 and trim is not None:
        trim(0)
