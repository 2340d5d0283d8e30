"""Where a long run's memory goes, in-process: `loop_overhead.py`'s instant eval and mutator, and every
100th cycle (`--every`) the resident set (RssAnon), glibc's heap (`mallinfo2`: in use and free), the `[heap]` mapping
against the anonymous ones (Python's arenas), and Python's own blocks (`sys._debugmallocstats`).

With `--trace A B`, tracemalloc snapshots at cycles A and B and the allocations still held, per cycle, by
where they were made (slow: run it for a few hundred cycles at most).
At the end, the CPU time the loop's `malloc_trim` (autoresearch.plumbing.heap.give_back, called once a cycle,
trims once every `heap.EVERY` calls) took, on average a cycle; with `--no-trim` it is not called at all, to
size what it gives back. With `--no-git-cache`, libgit2 keeps no cache of the objects it reads (it caches commits and trees, up to 256 MiB, in memory Python does
not see).
With `--chart-interval 0`, the live chart is redrawn after every cycle, as in a night whose cycles take
longer than the daemon's few seconds between redraws (these cycles take milliseconds, so by default the
chart is drawn once in many cycles).
Usage: python bench/heap_probe.py [--cycles 400] [--every 100] [--trace 40 140] [--chart-interval 0] [--no-trim] [--no-git-cache]
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import pygit2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import loop_overhead as lo  # noqa: E402

from autoresearch.optimizer import daemonlog  # noqa: E402
from autoresearch.optimizer.config import load  # noqa: E402
from autoresearch.optimizer.cycle import loop  # noqa: E402
from autoresearch.optimizer.experiment import session as session_module  # noqa: E402
from autoresearch.optimizer.startup.opening import open_session  # noqa: E402
from autoresearch.plumbing import heap  # noqa: E402

STATS = ("bytes in allocated blocks", "bytes in available blocks")


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()
    ]


def mallinfo() -> MallInfo2:
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    return libc.mallinfo2()


def rss_anon_kib() -> int:
    line = next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith("RssAnon:"))
    return int(line.split()[1])


def mappings_kib() -> tuple[int, int]:
    """Resident KiB of the `[heap]` mapping and of the unnamed anonymous ones (Python's arenas among them)."""
    heap = anon = 0
    kind = ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        parts = line.split()
        if "-" in parts[0] and ":" not in parts[0]:
            kind = "heap" if parts[-1] == "[heap]" else "anon" if len(parts) == 5 else "file"
        elif parts[0] == "Rss:":
            heap += int(parts[1]) if kind == "heap" else 0
            anon += int(parts[1]) if kind == "anon" else 0
    return heap, anon


def python_blocks() -> dict[str, int]:
    """Python's allocator: bytes in its allocated and its free blocks (`sys._debugmallocstats` writes to fd 2)."""
    with tempfile.TemporaryFile() as f:
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read().decode()
    found = {}
    for line in text.splitlines():
        name, _, value = line.strip("# ").partition("=")
        if name.strip() in STATS:
            found[name.strip()] = int(value.replace(",", ""))
    return found


class Probe(lo.InstantMutator):
    """The instant mutator, reporting before each 100th mutation (and taking the trace's snapshots)."""

    def __init__(self, *args, marks: tuple[int, int] | None, every: int):
        super().__init__(*args)
        self.marks, self.snapshots, self.every = marks, {}, every

    def mutate(self, request):
        cycle = request.cycle
        if cycle % self.every == 0 or (self.marks and cycle in self.marks):
            gc.collect()
            info, (heap, anon), blocks = mallinfo(), mappings_kib(), python_blocks()
            print(
                f"cycle {cycle:>5}  RssAnon {rss_anon_kib():>7} KiB  malloc in use {info.uordblks // 1024:>6} KiB"
                f"  free {info.fordblks // 1024:>6} KiB  [heap] {heap:>6} KiB  anon {anon:>6} KiB"
                f"  python blocks {blocks.get(STATS[0], 0) // 1024:>6} KiB  free {blocks.get(STATS[1], 0) // 1024:>5} KiB",
                flush=True,
            )
            if self.marks and cycle in self.marks:
                self.snapshots[cycle] = tracemalloc.take_snapshot()
        return super().mutate(request)


class TrimClock:
    """`heap.give_back` timed (CPU of this thread), or left out."""

    def __init__(self, trim: bool):
        self.calls, self.cpu_ns, self.trim, self.original = 0, 0, trim, heap.give_back

    def __call__(self) -> None:
        if self.trim:
            started = time.thread_time_ns()
            self.original()
            self.cpu_ns += time.thread_time_ns() - started
        self.calls += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=400)
    parser.add_argument("--every", type=int, default=100, metavar="N", help="report every N cycles")
    parser.add_argument("--trace", type=int, nargs=2, metavar=("A", "B"))
    parser.add_argument("--chart-interval", type=float, default=session_module.CHART_INTERVAL_S, metavar="S")
    parser.add_argument("--no-trim", action="store_true", help="no malloc_trim at all")
    parser.add_argument("--no-git-cache", action="store_true", help="libgit2's object cache off")
    args = parser.parse_args()
    if args.no_git_cache:
        pygit2.settings.enable_caching(False)
    heap.give_back = clock = TrimClock(not args.no_trim)
    session_module.CHART_INTERVAL_S = args.chart_interval
    if args.chart_interval == 0:  # every cycle, however long a redraw takes against the cycle
        session_module.CHART_SHARE = float("inf")
    marks = tuple(args.trace) if args.trace else None
    if marks:
        tracemalloc.start(8)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo, raw_repo = lo.make_repo(root / "loop"), lo.make_repo(root / "raw")
        config = load(repo / "autoresearch.yaml", {"stop.max_cycles": max(args.cycles, *(marks or (0,))) + 1})
        daemonlog.setup(None, quiet=True)
        session = open_session(config, repo)
        watch = lo.Stopwatch()
        session.evaluator = lo.InstantEval(repo / "prompt.md", watch)
        session.mutator = probe = Probe(repo / "prompt.md", raw_repo, watch, marks=marks, every=args.every)
        loop.run(session)
        session.close()
    if clock.calls and clock.trim:
        print(f"malloc_trim: {clock.cpu_ns / clock.calls / 1e6:.3f} ms of CPU a cycle ({clock.calls} calls)")
    if marks:
        a, b = marks
        for stat in probe.snapshots[b].compare_to(probe.snapshots[a], "traceback")[:20]:
            print(f"{stat.size_diff / (b - a):8.0f} bytes a cycle  ({stat.count_diff} blocks)")
            print("\n".join(f"    {line}" for line in stat.traceback.format()[-8:]))


if __name__ == "__main__":
    main()
