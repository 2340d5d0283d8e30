"""The system calls of a KEEP and of a DROP (bench/decision_writes.py under strace): their count, and how many
files each makes anew (an open with O_CREAT, but the reflogs' appends). Deterministic where the CPU is not: on
the shared machine a file made costs 20 us of the kernel's time at one moment and 700 us at the next.
Usage: python bench/decision_syscalls.py [--cycles N]   (strace on the PATH)
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARK = re.compile(r'write\(2, "=== (KEEP|DROP|end)')


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "trace"
        command = [sys.executable, str(HERE / "decision_writes.py"), "--cycles", str(args.cycles), "--rounds", "1"]
        subprocess.run(["strace", "-f", "-o", str(trace), *command, "--marks"], check=True, capture_output=True)
        calls: dict[str, list[int]] = {"KEEP": [], "DROP": []}
        made: dict[str, list[int]] = {"KEEP": [], "DROP": []}
        kind, count, new = None, 0, 0
        for line in trace.read_text().splitlines():
            mark = MARK.search(line)
            if mark and mark.group(1) == "end" and kind is not None:
                calls[kind].append(count)
                made[kind].append(new)
                kind = None
            elif mark and mark.group(1) != "end":
                kind, count, new = mark.group(1), 0, 0
            elif kind is not None and "<unfinished" not in line:
                count += 1
                new += "O_CREAT" in line and "O_APPEND" not in line
    for kind in ("KEEP", "DROP"):
        settled = calls[kind][5:]  # the first few make the objects' folders
        print(
            f"{kind}: {statistics.median(settled):.0f} system calls ({min(settled)}-{max(settled)}), "
            f"{statistics.median(made[kind][5:]):.0f} files made"
        )


if __name__ == "__main__":
    main()
