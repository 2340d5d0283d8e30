"""The CPU of writing a cycle's decision down outside git: the iterations line appended by the ledger (to its
copy, then to the file, fsynced), four log lines to daemon.log, then the digest written before the next cycle.

Timed by the main thread's CPU time (`time.thread_time`: no other thread's, unlike the loop's process time)
over `--cycles` cycles after a night of `--night` lines, every fourth a KEEP, each with a run directory of
`--tests` results, as the loop makes them; the median of `--rounds` rounds. Run it with another build's Python
(`/path/to/other/.venv/bin/python bench/records_cycle.py`) to time that build: it uses the autoresearch the
running Python has installed.

Usage: python bench/records_cycle.py [--cycles N] [--night N] [--tests N] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.experiment.digest import Digest
from autoresearch.optimizer.guard.ledger import Ledger
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory.iterations import Iteration


def _line(paths: ExperimentPaths, cycle: int, tests: int) -> Iteration:
    run_dir = f"2026-11-29T04-00-00-c{cycle:04d}"
    folder = paths.run_dir(run_dir)
    folder.mkdir(parents=True)
    rows = (json.dumps({"test_id": f"t{n}", "score": (cycle * n) % 7 / 7}) for n in range(tests))
    (folder / "index.jsonl").write_text("".join(f"{row}\n" for row in rows))
    decision = "keep" if cycle == 1 or cycle % 4 == 0 else "drop"
    return Iteration(
        cycle=cycle, score=0.5, decision=decision, mutation=f"idea {cycle}", reason="no win", run_dir=run_dir
    )


def _round(folder: Path, cycles: int, night: int, tests: int) -> float:
    """Microseconds of the main thread's CPU a cycle."""
    paths = ExperimentPaths(folder / "results" / "runs" / "exp")
    paths.meta.mkdir(parents=True)
    ledger = Ledger.open(paths.iterations, folder / "vault" / "iterations.jsonl")
    memory = Digest(paths)
    daemonlog.setup(None, quiet=True)
    daemonlog.write_to(paths.log)
    log = daemonlog.get()
    for cycle in range(1, night + 1):
        ledger.append(_line(paths, cycle, tests))
    memory.write()
    spent = 0.0
    for cycle in range(night + 1, night + cycles + 1):
        entry = _line(paths, cycle, tests)
        daemonlog.bind(experiment="exp", cycle=cycle, phase="decide")
        started = time.thread_time()
        log.info("eval done", score=0.5, tests=tests)
        log.info("compared", wins=1, losses=2, ties=tests - 3)
        ledger.append(entry)
        log.info(entry.decision, score=0.5, wins=1, losses=2, ties=tests - 3, mean_delta=-0.01, mutation=entry.mutation)
        log.info("cycle done", seconds=0.02)
        memory.write()
        spent += time.thread_time() - started
    daemonlog.setup(None, console=False)
    return spent / cycles * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--night", type=int, default=300)
    parser.add_argument("--tests", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    figures = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as folder:
            figures.append(_round(Path(folder), args.cycles, args.night, args.tests))
    print(f"autoresearch from {Path(daemonlog.__file__).parents[1]}")
    print(
        f"records a cycle: {statistics.median(figures):.0f} us of CPU (median of {args.rounds}; "
        f"{min(figures):.0f}-{max(figures):.0f})"
    )


if __name__ == "__main__":
    main()
