"""The scope guard's cost per cycle, beside the daemon's own time per cycle, on a large repository.

Builds a repository with a git-ignored node_modules of 50,000 files (in 2,500
directories) beside the artifact, and runs cycles of the real loop on it with an
instant in-process eval and mutator (as bench/loop_overhead.py does), KEEPs and
DROPs alternating. The guard's calls (`settle` and `arm`, its journal, before
each mutation, `changes` after it) are timed inside the same run, so both figures see the same machine.
Reported per watch mode: inotify, and the stat-walk fallback
(AUTORESEARCH_GUARD_POLL=1), with the one-time cost of opening the guard
(reading every guarded file once). Goal: the guard under 10% of a cycle's
overhead with inotify.
Usage: python bench/scope_guard.py [--files N] [--cycles N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.config import load  # noqa: E402
from autoresearch.optimizer.cycle import loop
from autoresearch.optimizer.guard import scope  # noqa: E402
from autoresearch.optimizer.startup.opening import open_session  # noqa: E402
from bench.loop_overhead import InstantEval, InstantMutator, Stopwatch, git, make_repo  # noqa: E402

PER_DIR = 20


class TimedGuard(scope.Guard):
    """The real guard, with a clock around each of its calls."""

    spent_s = 0.0
    opened_s = 0.0

    def open(self) -> None:
        started = time.perf_counter()
        super().open()
        TimedGuard.opened_s = time.perf_counter() - started

    def settle(self) -> None:
        started = time.perf_counter()
        super().settle()
        TimedGuard.spent_s += time.perf_counter() - started

    def arm(self, run_dir: Path) -> None:
        started = time.perf_counter()
        super().arm(run_dir)
        TimedGuard.spent_s += time.perf_counter() - started

    def changes(self):
        started = time.perf_counter()
        try:
            return super().changes()
        finally:
            TimedGuard.spent_s += time.perf_counter() - started


def big_repo(root: Path, files: int) -> Path:
    repo = make_repo(root)
    (repo / ".gitignore").write_text("node_modules/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore node_modules")
    for n in range(files):
        folder = repo / "node_modules" / f"pkg{n // PER_DIR:04d}"
        if n % PER_DIR == 0:
            folder.mkdir(parents=True)
        (folder / f"file{n % PER_DIR}.js").write_text(f"module.exports = {n};\n")
    return repo


def measure(repo: Path, raw: Path, cycles: int, poll: bool) -> tuple[float, float, float]:
    """(the daemon's own seconds per cycle, the guard's seconds per cycle, the guard's opening seconds)."""
    os.environ.pop("AUTORESEARCH_GUARD_POLL", None)
    if poll:
        os.environ["AUTORESEARCH_GUARD_POLL"] = "1"
    config = load(repo / "autoresearch.yaml", {"stop.max_cycles": cycles, "cache": False, "experiment": f"poll{poll}"})
    daemonlog.setup(None, quiet=True)
    session = open_session(config, repo)
    watch = Stopwatch()
    session.evaluator = InstantEval(repo / "prompt.md", watch)
    session.mutator = InstantMutator(repo / "prompt.md", raw, watch)  # (its raw git, on `raw`, is not timed here)
    session.guard = TimedGuard(session.ws, session.paths.results_dir, session.cache.root.parent, session.vault.guard)
    session.guard.open()
    TimedGuard.spent_s = 0.0
    started = time.perf_counter()
    loop.run(session)
    elapsed = time.perf_counter() - started
    session.close()
    return (elapsed - watch.outside_s) / cycles, TimedGuard.spent_s / cycles, TimedGuard.opened_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50_000)
    parser.add_argument("--cycles", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        repo, raw = big_repo(Path(tmp) / "repo", args.files), make_repo(Path(tmp) / "raw")
        print(
            f"{args.files} ignored files built in {time.perf_counter() - started:.1f} s; {args.cycles} cycles per mode"
        )
        print(f"{'mode':>9}  {'cycle ms':>8}  {'guard ms':>8}  {'share':>6}  {'open s':>6}")
        for poll in (False, True):
            own, guard, opened = measure(repo, raw, args.cycles if not poll else max(4, args.cycles // 10), poll)
            name = "stat-walk" if poll else "inotify"
            print(f"{name:>9}  {own * 1000:8.2f}  {guard * 1000:8.2f}  {guard / own:6.1%}  {opened:6.2f}")
    print(
        "cycle ms: the daemon's own time per cycle, the guard included; share: guard / cycle (goal with inotify: < 10%)"
    )


if __name__ == "__main__":
    main()
