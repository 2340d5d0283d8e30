"""Lookups in a result-cache log: one whose last line is torn and long (a kill in the write of large rows,
or a mutator's line with no end), the first lookup's time then each one's after, until the next append;
with `--entries`, a night's log instead (the first lookup indexes it whole).

    python bench/cache_torn_tail.py --mib 100
    python bench/cache_torn_tail.py --entries 10000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from autoresearch.runs.cache import SampleCache

ROWS = [{"test_id": f"t{i}", "score": 0.5, "output": "y" * 100} for i in range(40)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=100, help="the torn line's length")
    parser.add_argument("--entries", type=int, default=0, help="a log of this many entries, no torn line")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        writer = SampleCache(Path(root), "eval")
        for n in range(max(1, args.entries)):
            writer.put(f"{n:040x}", 1, ROWS)
        log = writer.root / "entries.log"
        if not args.entries:
            with log.open("ab") as f:
                f.write(b"\n" + b"x" * (args.mib << 20))
        reader = SampleCache(Path(root), "eval")
        times = []
        for n in range(0, max(1, args.entries), max(1, args.entries // 100)):
            start = time.perf_counter()
            assert reader.get(f"{n:040x}", 1) == ROWS
            times.append(time.perf_counter() - start)
        if not args.entries:
            for _ in range(5):
                start = time.perf_counter()
                assert reader.get(f"{0:040x}", 1) == ROWS
                times.append(time.perf_counter() - start)
        size = log.stat().st_size
    print(
        f"log {size >> 20} MiB: first lookup {times[0] * 1e3:.1f} ms, "
        f"then median {statistics.median(times[1:]) * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
