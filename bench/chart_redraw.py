"""One live redraw of the trajectory page at a long night's length: from whole records read each time (what the
daemon did, and `autoresearch chart` still does once) against the rows the session keeps (trajectory.drawn.Rows,
reading only the line appended since). Prints the median time of a redraw and tracemalloc's peak during one.
Usage: python bench/chart_redraw.py [--lines 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.trajectory import iterations, page  # noqa: E402
from autoresearch.trajectory.drawn import Rows  # noqa: E402
from tests.trajectory.sample import records, state, write_experiment  # noqa: E402


def redraw(meta: Path, read) -> None:
    recs, bad = read()
    page.write(meta / "trajectory.html", page.PageData("exp", recs, bad, state=state(len(recs))))


def measure(name: str, meta: Path, read, repeat: int) -> None:
    path = meta / "iterations.jsonl"
    line = path.read_text().splitlines()[-1]
    times = []
    for _ in range(repeat):
        with path.open("a") as f:  # a cycle's new line, then the redraw
            f.write(line + "\n")
        start = time.perf_counter()
        redraw(meta, read)
        times.append(time.perf_counter() - start)
    with path.open("a") as f:
        f.write(line + "\n")
    tracemalloc.start()
    redraw(meta, read)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{name:>8}: median {statistics.median(times) * 1000:6.0f} ms a redraw, peak {peak / 2**20:5.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        meta = write_experiment(Path(tmp), records(args.lines))
        path = meta / "iterations.jsonl"
        measure("records", meta, lambda: iterations.read(path), args.repeat)
        rows = Rows(path)
        rows.read()  # the session has read the night so far
        measure("rows", meta, rows.read, args.repeat)


if __name__ == "__main__":
    main()
