"""The CPU of the small records written in place (autoresearch.plumbing.inplace): the note before each git
write of the daemon's (`_autoresearch/git-write.json`), and a KEEP's pending line: a write, a blank and a read.

Process time a call, over `--times` calls of each on a temporary file. The package is the one the running
Python has installed (no `sys.path` insert, unlike the other benches), so that the same file times two trees'
virtual environments: `cd /tmp/ar-base && .venv/bin/python <this file>` against the tree's own.

Usage: python bench/record_writes.py [--times N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from autoresearch.plumbing import inplace

NOTE = b'{"git": ["commit", "--message", "cycle 12: keep"], "pid": 1234}\n'


def per_call(times: int, act: Callable[[], object]) -> float:
    """Microseconds of process time a call of `act`."""
    start = time.process_time()
    for _ in range(times):
        act()
    return (time.process_time() - start) / times * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=20000)
    times = parser.parse_args().times
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "git-write.json"
        inplace.write(path, NOTE)
        figures = {
            "write": per_call(times, lambda: inplace.write(path, NOTE)),
            "blank": per_call(times, lambda: inplace.blank(path)),
            "read": per_call(times, lambda: inplace.read(path)),
        }
    print(f"{inplace.__file__}: " + "; ".join(f"{name} {us:.2f} us" for name, us in figures.items()))


if __name__ == "__main__":
    main()
