"""One live redraw of the trajectory page at a long night's length: from whole records read each time (what the
daemon did, and `autoresearch chart` still does once) against the rows the session keeps (trajectory.drawn.Rows,
reading only the line appended since, with each run's scores and the table's rows kept as the session keeps
them). Prints the median time of a redraw, wall and CPU (the process's: on a loaded machine the wall is mostly
waiting), and tracemalloc's peak during one. `--varied`: a night with every kind of line (re-baselines,
candidates, gates, objectives, holdout, early discards) rather than KEEPs, DROPs and ERRORs alone.
Usage: python bench/chart_redraw.py [--lines 2000] [--repeat 5] [--varied]
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

from autoresearch.trajectory import iterations, page, page_parts, testscores  # noqa: E402
from autoresearch.trajectory.drawn import Rows  # noqa: E402
from tests.trajectory.sample import records, state, varied, write_experiment  # noqa: E402

Kept = tuple[testscores.Kept, page_parts.KeptRows]  # what the session keeps between two redraws


def redraw(meta: Path, read, kept: Kept | None) -> None:
    recs, bad = read()
    scores, rows = kept or (None, None)
    data = page.PageData("exp", recs, bad, state=state(len(recs)), kept_scores=scores, kept_rows=rows)
    page.write(meta / "trajectory.html", data)


def measure(name: str, meta: Path, read, repeat: int, kept: Kept | None = None) -> None:
    path = meta / "iterations.jsonl"
    line = path.read_text().splitlines()[-1]
    times, cpus = [], []
    for _ in range(repeat):
        with path.open("a") as f:  # a cycle's new line, then the redraw
            f.write(line + "\n")
        start, cpu = time.perf_counter(), time.process_time()
        redraw(meta, read, kept)
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    with path.open("a") as f:
        f.write(line + "\n")
    tracemalloc.start()
    redraw(meta, read, kept)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{name:>8}: median {statistics.median(times) * 1000:6.0f} ms a redraw, CPU {statistics.median(cpus) * 1000:6.0f}"
        f" ms, peak {peak / 2**20:5.1f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--varied", action="store_true", help="every kind of line, not KEEPs, DROPs and ERRORs alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        meta = write_experiment(Path(tmp), (varied if args.varied else records)(args.lines))
        path = meta / "iterations.jsonl"
        measure("records", meta, lambda: iterations.read(path), args.repeat)
        rows, kept = Rows(path), (testscores.Kept(meta), page_parts.kept_rows(meta))
        redraw(meta, rows.read, kept)  # the session has drawn the night so far
        measure("rows", meta, rows.read, args.repeat, kept)


if __name__ == "__main__":
    main()
