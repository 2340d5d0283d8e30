"""What the daemon's own history costs a cycle: one line appended to iterations.jsonl, then its check around a
mutation (taken before, compared after), at a night's length.

Runs on this checkout's code and on an older one alike (before the ledger, the check was trusted.py's copy of
the file into a new unnamed file once it passed 64 KiB): run it with both pythons, side by side.
Usage: python bench/records_check.py [--lines N ...] [--cycles K]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.guard import trusted  # noqa: E402
from autoresearch.trajectory import iterations  # noqa: E402
from autoresearch.trajectory.iterations import Iteration  # noqa: E402

try:
    from autoresearch.optimizer.guard.ledger import Ledger  # noqa: E402
except ImportError:  # an older version: no ledger
    Ledger = None  # type: ignore[assignment,misc]


def _line(cycle: int) -> Iteration:
    return Iteration(
        cycle=cycle,
        score=0.5,
        decision="drop",
        cost_usd=0.003,
        assertions={f"check-{c}": 0.5 for c in "abcdefgh"},
        mutation="a one-line summary of what the mutator changed, as long as most are",
        run_dir=f"2026-11-29T04-00-00-c{cycle:04d}",
        reason="wins 0 <= losses 0",
        eval_key="d97a89b81cad885a4811",
    )


def night(folder: Path, lines: int) -> tuple[Callable[[Iteration], None], trusted.Watched]:
    """The side's way to append a line, and what its mutation window watches."""
    meta = folder / "_autoresearch"
    meta.mkdir(parents=True)
    holdout = meta / "holdout.json"
    holdout.write_bytes(b'{"tests": ["a", "b"]}\n')
    if Ledger is None:
        append = lambda record: iterations.append(meta / "iterations.jsonl", record)  # noqa: E731
        watched = trusted.Watched((meta / "iterations.jsonl", holdout), ())
    else:
        ledger = Ledger.open(meta / "iterations.jsonl", folder / "vault" / "iterations.jsonl")
        append, watched = ledger.append, trusted.Watched((holdout,), (), (), ledger)
    for n in range(1, lines + 1):
        append(_line(n))
    return append, watched


def per_cycle(lines: int, cycles: int) -> tuple[float, float, int]:
    """(median wall, median CPU) of a cycle's append and check, in microseconds; the file's size at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        append, watched = night(Path(tmp), lines)
        walls, cpus = [], []
        for n in range(lines + 1, lines + cycles + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            append(_line(n))
            snapshot = trusted.take(watched)
            changed = trusted.restore(snapshot, Path(tmp) / "aside", Path(tmp))
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            assert changed == []
        size = (Path(tmp) / "_autoresearch" / "iterations.jsonl").stat().st_size
        return statistics.median(walls) * 1e6, statistics.median(cpus) * 1e6, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--cycles", type=int, default=200)
    args = parser.parse_args()
    side = "ledger" if Ledger is not None else "copy a cycle"
    print(f"{side}: one append and one check a cycle, median of {args.cycles} cycles, in microseconds")
    print(f"{'lines':>6} {'size KiB':>9} {'wall':>8} {'CPU':>8}")
    for lines in args.lines:
        wall, cpu, size = per_cycle(lines, args.cycles)
        print(f"{lines:>6} {size / 1024:>9.0f} {wall:>8.0f} {cpu:>8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
