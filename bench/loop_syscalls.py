"""The daemon's own system calls a cycle in bench/loop_overhead.py's round, under strace: every call of a thread
or process that never exec'd a program (git, the mutator) counted, in a round of N cycles and of 3N, and the
difference divided by 2N, so that the start (imports, the repositories made) cancels. Deterministic where the
CPU is not (issue 34); the repositories are made under $TMPDIR.
Usage: python bench/loop_syscalls.py [--cycles N] [--top K]   (strace on the PATH)
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CALL = re.compile(r"^(\d+)\s+([a-z_0-9]+)\(")  # a call's start (a resumed one's end is not counted again)
ROUND = "import sys; sys.path.insert(0, sys.argv[1]); import loop_overhead; loop_overhead.time_round(__import__('pathlib').Path(sys.argv[2]), int(sys.argv[3]))"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    short, long = _calls(args.cycles), _calls(3 * args.cycles)
    cycles = 2 * args.cycles
    print(f"the daemon's own system calls a cycle: {(sum(long.values()) - sum(short.values())) / cycles:.1f}")
    for name, count in (long - short).most_common(args.top):
        print(f"  {name:16s} {count / cycles:7.1f}")


def _calls(cycles: int) -> collections.Counter[str]:
    """The calls of the round's own threads (not of the programs it ran), by name."""
    with tempfile.TemporaryDirectory() as folder:
        trace, work = Path(folder) / "trace", Path(folder) / "round"
        work.mkdir()
        command = [sys.executable, "-c", ROUND, str(HERE), str(work), str(cycles)]
        subprocess.run(["strace", "-f", "-qq", "-o", str(trace), *command], check=True, capture_output=True)
        by_thread: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        ran, first = set(), None
        with trace.open(errors="replace") as lines:
            for line in lines:
                found = CALL.match(line)
                if found is None:
                    continue
                thread, name = found.groups()
                first = first or thread  # the round's own process, exec'd by strace
                if name == "execve" and thread != first:
                    ran.add(thread)
                by_thread[thread][name] += 1
    total: collections.Counter[str] = collections.Counter()
    for thread, counts in by_thread.items():
        if thread not in ran:
            total += counts
    return total


if __name__ == "__main__":
    main()
