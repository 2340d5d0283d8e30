"""What the sandbox's Landlock domain adds to a sandboxed command's start: `true` in the sandbox, with and without.

Runs `true` through `process.run` (the one way the daemon starts a command: its gate shell, its session,
its logs in memory) in the sandbox as the daemon makes it (`Sandbox.argv`: bubblewrap started in the
Landlock domain by `python -I -S plumbing/landlock.py`) and as bubblewrap alone makes it (`Sandbox.bare`),
in turn, so that the machine's drift falls on both; prints the median wall time of each over `--runs` pairs
and their difference. A command mutator or an eval pays the difference once per run of its command.
Usage: python bench/sandbox_start.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.plumbing import landlock, process  # noqa: E402
from autoresearch.plumbing.sandbox import Sandbox, unscoped  # noqa: E402


def timed(argv: list[str]) -> float:
    started = time.monotonic()
    done = process.run(argv, cwd=Path("/"), log_prefix=None, timeout_s=30)
    if done.returncode != 0:
        raise SystemExit(f"the sandbox's `true` exited {done.returncode}: {done.stderr.strip()}")
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    box = Sandbox()
    if why := unscoped(box.program):
        raise SystemExit(f"no Landlock domain to time here: {why}")
    times: dict[str, list[float]] = {"bubblewrap alone": [], "in the Landlock domain": []}
    for _ in range(args.runs):
        times["bubblewrap alone"].append(timed(box.bare(["true"], Path("/"))))
        times["in the Landlock domain"].append(timed(box.argv(["true"], Path("/"))))
    medians = {kind: statistics.median(walls) * 1000 for kind, walls in times.items()}
    print(f"Landlock ABI {landlock.abi()}, {args.runs} runs of each, in turn; median wall time of `true`:")
    for kind, median in medians.items():
        print(f"  {kind:24} {median:6.1f} ms")
    print(f"  {'added by the domain':24} {medians['in the Landlock domain'] - medians['bubblewrap alone']:6.1f} ms")


if __name__ == "__main__":
    main()
