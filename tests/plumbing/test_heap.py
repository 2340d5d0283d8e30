"""The heap's free pages go back to the system once in `EVERY` cycles, not after every one."""

from __future__ import annotations

import ctypes
import os

from autoresearch.plumbing import heap

CHUNK = 64 << 10  # below glibc's mmap threshold: carved from the heap, and left there when freed
CHUNKS = 256  # 16 MiB


def _resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_of_every_run_of_calls_one_gives_back_what_the_cycles_freed():
    libc = ctypes.CDLL("libc.so.6")
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    pin = None
    given_back = []
    try:
        for _ in range(heap.EVERY):
            chunks = [libc.malloc(CHUNK) for _ in range(CHUNKS)]  # what a cycle draws: the pages freed before
            for chunk in chunks:
                libc.memset(chunk, 1, CHUNK)
            pin = pin or libc.malloc(CHUNK)  # above them: their pages are not the heap's top, freed by free()
            for chunk in chunks:
                libc.free(chunk)
            before = _resident()
            heap.give_back()
            given_back.append(before - _resident() > CHUNK * CHUNKS // 2)
    finally:
        libc.free(pin)
    assert given_back.count(True) == 1
