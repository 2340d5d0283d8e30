"""What the loop's ratio to raw git is made of: `bench/loop_overhead.py`'s round run as it is, with every
fsync made a no-op, and with the temporary directory (both repositories) on a tmpfs, in turn, A B C A B C.

Each variant asks one question about issue 34's goal (the daemon's time a cycle at most 1.5x raw git's):
- `no-fsync`: what the records' durability costs (the iterations line's, the guard's arm's, a KEEP's journal
  flushed before the next step). The product never runs so: this patches `os.fsync` in the bench's process.
- `tmpfs`: what the file system's work costs, on both sides of the ratio: a tmpfs makes and removes files in
  memory. On an ext4 without a journal (this development machine's disk) each new inode is searched past
  every inode freed in the last half-minute (`recently_deleted` in the kernel's ext4/ialloc.c), so a cycle's
  files cost more the faster the loop deletes: the raw git side pays it too.
Each round is a process of its own (a patch and TMPDIR are process-wide), started in turn so that the machine's
drift falls on every variant alike; the figures are medians over the pairs. The daemon's CPU a cycle is split
into user and system time (getrusage), outside the eval and the mutator as loop_overhead counts it.
Usage: python bench/loop_costs.py [--cycles N] [--pairs P] [--variants as-is,no-fsync,tmpfs]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
VARIANTS = ("as-is", "no-fsync", "tmpfs")
TMPFS = Path("/dev/shm")


def child(variant: str, cycles: int) -> None:
    """One round in this process, its figures printed as one JSON line."""
    sys.path.insert(0, str(HERE))
    import loop_overhead as lo

    if variant == "no-fsync":
        os.fsync = lambda fd: None  # the measurement's question, never the product's setting
    with tempfile.TemporaryDirectory() as tmp:
        got = lo.time_round(Path(tmp), cycles)
    raw = got.raw
    print(
        json.dumps(
            {
                "ratio": got.ratio(cycles),
                "daemon_ms": got.wall_s / cycles * 1000,
                "raw_ms": (raw.commit_s + raw.checkout_s) / (raw.commits + raw.checkouts) * 1000,
                "user_ms": got.user_s / cycles * 1000,
                "sys_ms": got.sys_s / cycles * 1000,
            }
        )
    )


def is_tmpfs(path: Path) -> bool:
    with open("/proc/mounts", encoding="utf-8") as mounts:
        return any(line.split()[1:3] == [str(path), "tmpfs"] for line in mounts)


def run(variant: str, cycles: int, scratch: Path | None) -> dict[str, float]:
    env = dict(os.environ)
    if variant == "tmpfs":
        assert scratch is not None
        env["TMPDIR"] = str(scratch)
    done = subprocess.run(
        [sys.executable, __file__, "--child", variant, "--cycles", str(cycles)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.cycles)
        return
    variants = args.variants.split(",")
    unknown = sorted(set(variants) - set(VARIANTS))
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    if "tmpfs" in variants and not is_tmpfs(TMPFS):
        parser.error(f"{TMPFS} is not a tmpfs here: leave out the tmpfs variant")
    print(f"{args.cycles} cycles a round, {args.pairs} rounds of each variant in turn; times a cycle in ms")
    print(f"{'variant':<9}  {'round':>5}  {'daemon':>7}  {'raw git':>7}  {'ratio':>6}  {'user':>5}  {'sys':>5}")
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    with tempfile.TemporaryDirectory(dir=TMPFS if "tmpfs" in variants else None) as scratch:
        for n in range(1, args.pairs + 1):
            for variant in variants:
                got = run(variant, args.cycles, Path(scratch))
                results[variant].append(got)
                print(
                    f"{variant:<9}  {n:>5}  {got['daemon_ms']:7.1f}  {got['raw_ms']:7.1f}  {got['ratio']:5.2f}x"
                    f"  {got['user_ms']:5.1f}  {got['sys_ms']:5.1f}",
                    flush=True,
                )
    print("medians")
    for variant, rounds in results.items():

        def median(key: str, rounds: list[dict[str, float]] = rounds) -> float:
            return statistics.median(r[key] for r in rounds)

        ratios = [r["ratio"] for r in rounds]
        print(
            f"{variant:<9}  {'':>5}  {median('daemon_ms'):7.1f}  {median('raw_ms'):7.1f}  {median('ratio'):5.2f}x"
            f"  {median('user_ms'):5.1f}  {median('sys_ms'):5.1f}   (ratios {min(ratios):.2f}-{max(ratios):.2f}x)"
        )


if __name__ == "__main__":
    main()
