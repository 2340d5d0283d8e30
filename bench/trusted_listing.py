"""The CPU of listing the trusted records' folder of the best run (its `*.jsonl`), as the window before and
after each mutation lists it (trusted.Watched.paths), on a run folder settled for a few seconds.
`--installed`: time the installed autoresearch (another build's wheel) rather than this tree's.
Usage: python bench/trusted_listing.py [--calls 2000] [--installed]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

if "--installed" not in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.guard import trusted  # noqa: E402

RUN_FILES = ("index.jsonl", "grading.json", "benchmark.json", "eval.stderr.log", "candidate.patch", "mutation.md")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--installed", action="store_true", help="the installed autoresearch, not this tree's")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "best"
        run.mkdir()
        for name in RUN_FILES:
            (run / name).write_text("x\n")
        (run / "outside").mkdir()
        time.sleep(3.2)  # older than trusted.SETTLED_NS: a best run's folder, written cycles ago
        watched = trusted.Watched((), ((run, "*.jsonl"),))
        watched.paths()
        times = []
        for _ in range(5):
            cpu = time.process_time()
            for _ in range(args.calls):
                watched.paths()
            times.append((time.process_time() - cpu) / args.calls)
    print(f"listing the best run's *.jsonl: {min(times) * 1e6:.1f} us of CPU (best of 5 x {args.calls:,})")


if __name__ == "__main__":
    main()
