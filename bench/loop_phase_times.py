"""Where the loop's time goes a cycle, by phase, without a profiler: `bench/loop_overhead.py` with each phase's
function wrapped in a timer (wall and process time).

`bench/loop_phases.py` runs the loop under cProfile, which makes every Python call dearer (a cycle costs about
2.4 times its unprofiled figure), so its phases compare only with each other. Here only the phases named below
are timed, each by a wrapper put in place of the function in every module that holds it, so the figures are
the loop's own, comparable with loop_overhead's. They are inclusive (a phase holds the phases it calls) and
divided by the cycles, as loop_phases' are; the process time counts every thread of the process. With
`--guard`, the parts of the mutation window are timed too (the scope guard's settle, arm and check, its copies,
its inotify looks, the throwaway checkout's watch, the records' snapshot) and the heap's trim after each cycle.
Usage: python bench/loop_phase_times.py [--cycles N] [--guard]
"""

from __future__ import annotations

import argparse
import importlib
import runpy
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import autoresearch.optimizer.cycle.loop  # noqa: F401  (every module the loop imports, to find the functions in)

PHASES = (
    ("autoresearch.optimizer.cycle.engine", "new_batch"),
    ("autoresearch.optimizer.cycle.mutate", "open_window"),
    ("autoresearch.optimizer.gitrepo.throwaway", "Throwaway.take"),
    ("autoresearch.optimizer.cycle.mutate", "run_mutator"),
    ("autoresearch.optimizer.cycle.mutate", "check_worktree"),
    ("autoresearch.optimizer.cycle.mutate", "undo_outside"),
    ("autoresearch.optimizer.cycle.engine", "_judge"),
    ("autoresearch.optimizer.cycle.conclude", "conclude"),
    ("autoresearch.optimizer.cycle.tree", "Candidate.commit"),
    ("autoresearch.optimizer.cycle.tree", "Candidate.discard"),
    ("autoresearch.optimizer.cycle.record", "record"),
    ("autoresearch.optimizer.experiment.digest", "Digest.write"),
    ("autoresearch.optimizer.cycle.record", "write_chart"),
    ("autoresearch.optimizer.daemonlog", "Logger._log"),
)
GUARD_PHASES = (
    ("autoresearch.optimizer.guard.scope", "Guard.settle"),
    ("autoresearch.optimizer.guard.scope", "Guard.arm"),
    ("autoresearch.optimizer.guard.scope", "Guard.changes"),
    ("autoresearch.optimizer.guard.backups", "Backups.hold"),
    ("autoresearch.optimizer.guard.fswatch", "Watcher.changed"),
    ("autoresearch.optimizer.guard.checkoutwatch", "CheckoutWatch.start"),
    ("autoresearch.optimizer.guard.checkoutwatch", "CheckoutWatch.artifact_alone"),
    ("autoresearch.optimizer.guard.trusted", "take"),
    ("autoresearch.optimizer.guard.trusted", "restore"),
    ("autoresearch.plumbing.heap", "give_back"),
)

totals: dict[str, list[float]] = {}  # by phase: wall seconds, process seconds, calls


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            total = totals.setdefault(label, [0.0, 0.0, 0])
            total[0] += time.perf_counter() - wall
            total[1] += time.process_time() - cpu
            total[2] += 1

    return wrapper


def wrap(module_name: str, name: str) -> None:
    """The function put back wrapped wherever it is held: its class, or every module that imported it."""
    module = importlib.import_module(module_name)
    if "." in name:
        owner, method = name.split(".")
        cls = getattr(module, owner)
        setattr(cls, method, timed(name, getattr(cls, method)))
        return
    function = getattr(module, name)
    wrapper = timed(f"{module_name.rsplit('.', 1)[1]}.{name}", function)
    for held in list(sys.modules.values()):
        for key, value in list(getattr(held, "__dict__", {}).items()):
            if value is function:
                setattr(held, key, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--guard", action="store_true", help="the mutation window's parts and the heap's trim too")
    args = parser.parse_args()
    for module_name, name in PHASES + (GUARD_PHASES if args.guard else ()):
        wrap(module_name, name)
    bench = Path(__file__).resolve().parent / "loop_overhead.py"
    sys.argv = [str(bench), "--cycles", str(args.cycles), "--rounds", "1"]
    runpy.run_path(str(bench), run_name="__main__")
    print(f"{'phase':32}  {'wall us':>8}  {'CPU us':>8}  calls  (a cycle, inclusive)")
    for label, (wall, cpu, calls) in totals.items():
        print(f"{label:32}  {wall / args.cycles * 1e6:8.0f}  {cpu / args.cycles * 1e6:8.0f}  {int(calls)}")


if __name__ == "__main__":
    main()
