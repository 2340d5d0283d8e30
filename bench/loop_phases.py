"""Where the loop's CPU goes a cycle, by phase: `bench/loop_overhead.py` under cProfile (process time).

The profiler makes each Python call dearer (a cycle's CPU is about 2.4 times its unprofiled figure), so the
phases compare with each other and with the same phase on another build, not with loop_overhead's CPU.
Each phase is a function's cumulative time over the run divided by the cycles (a KEEP's commit and a DROP's
restore each happen on half of them); nested phases are indented, and the guard's window holds the put-back.
With `--wall` the profile's clock is the wall clock: a git process's time (not the daemon's CPU) shows in the
phase that waits for it, where the process time leaves it out.
Usage: python bench/loop_phases.py [--cycles N] [--save FILE] [--wall]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import runpy
import sys
import time
from pathlib import Path

PHASES = (
    ("the cycle", "optimizer/cycle/engine.py", "cycle"),
    ("  the run directory and the batch", "optimizer/cycle/in_checkout.py", "new_batch"),
    ("  the guard's window (settle, arm)", "optimizer/cycle/mutate.py", "open_window"),
    ("    the throwaway checkout's put-back", "optimizer/gitrepo/throwaway.py", "take"),
    ("      of it linked.plain", "optimizer/gitrepo/linked.py", "plain"),
    ("  the mutator (the bench's, and its raw git)", "optimizer/cycle/mutate.py", "run_mutator"),
    ("  the checkout's watch started", "optimizer/cycle/mutate.py", "_watch"),
    ("  the checkout's check (its status)", "optimizer/cycle/mutate.py", "check_worktree"),
    ("  the guard's look after the mutation", "optimizer/cycle/mutate.py", "undo_outside"),
    ("  the eval and the comparison", "optimizer/cycle/engine.py", "_judge"),
    ("  the decision's conclusion", "optimizer/cycle/conclude.py", "conclude"),
    ("    the commit (KEEPs)", "optimizer/cycle/tree.py", "commit"),
    ("    the restore (DROPs)", "optimizer/cycle/tree.py", "discard"),
    ("    the line and the digest", "optimizer/cycle/record.py", "record"),
    ("    the chart", "optimizer/cycle/record.py", "write_chart"),
    ("  the log lines", "optimizer/daemonlog.py", "_log"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--save", type=Path, help="the profile, for pstats")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not process time")
    args = parser.parse_args()
    bench = Path(__file__).resolve().parent / "loop_overhead.py"
    sys.argv = [str(bench), "--cycles", str(args.cycles), "--rounds", "1"]
    profile = cProfile.Profile(time.perf_counter if args.wall else time.process_time)
    profile.enable()
    try:
        runpy.run_path(str(bench), run_name="__main__")
    finally:
        profile.disable()
    if args.save:
        profile.dump_stats(args.save)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    for label, path, name in PHASES:
        hits = [v for k, v in stats.items() if k[0].endswith(path) and k[2] == name]
        print(
            f"{label:48} {sum(v[3] for v in hits) / args.cycles * 1e6:7.0f} us a cycle ({sum(v[1] for v in hits)} calls)"
        )


if __name__ == "__main__":
    main()
