"""The CPU of the files the loop writes each cycle, one at a time, as the loop does them (issue 34).

On a loaded machine the loop's whole CPU a cycle (bench/loop_overhead.py) moves by more than any one of
these; timed alone, a few hundred times each, they compare. Each is timed by process time (the kernel's
share included) over `--times` repetitions on a temporary repository:

- digest: a line appended to a 300-line iterations.jsonl, then the digest written (its text made too);
- clock: the scope guard's settle of the result cache after a cycle's entry (its clock probe read);
- cache: a new result cache entry stored (appended to its eval's log);
- miss: a lookup of the next cycle's new sample, which the cache does not hold, after that store;
- put-back: the sandboxed mutator's throwaway checkout put back to HEAD after a DROP;
- put-back-keep: the same after a KEEP (HEAD moved: the artifact's file and its index entry written);
- carry: the sandboxed mutator's candidate carried from its throwaway checkout into the user's artifact.

Usage: python bench/cycle_files.py [--times N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.experiment.digest import Digest  # noqa: E402
from autoresearch.optimizer.gitrepo.candidates import carry_artifact  # noqa: E402
from autoresearch.optimizer.gitrepo.throwaway import Throwaway  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402
from autoresearch.optimizer.guard.cachefolders import CacheFolders  # noqa: E402
from autoresearch.plumbing.paths import ExperimentPaths  # noqa: E402
from autoresearch.runs.cache import SampleCache  # noqa: E402
from autoresearch.runs.cachelog import NAME as LOG  # noqa: E402
from autoresearch.trajectory.iterations import Iteration, append  # noqa: E402

ROWS = [{"test_id": f"t{n}", "score": 0.5} for n in range(10)]


def per_call(times: int, setup: Callable[[int], None], act: Callable[[int], None]) -> float:
    """Microseconds of process time a call of `act`, `setup` (not timed) before each."""
    spent = 0.0
    for n in range(times):
        setup(n)
        started = time.process_time()
        act(n)
        spent += time.process_time() - started
    return spent / times * 1e6


def line(cycle: int) -> Iteration:
    return Iteration(cycle=cycle, score=0.5, decision="drop", mutation=f"idea {cycle}", reason="no win", run_dir="")


def digest(root: Path, times: int) -> float:
    paths = ExperimentPaths(root / "exp")
    for cycle in range(1, 301):
        append(paths.iterations, line(cycle))
    memory = Digest(paths)
    memory.write()
    return per_call(times, lambda n: append(paths.iterations, line(301 + n)), lambda n: memory.write())


def clock(root: Path, times: int) -> float:
    cache = root / "cache"
    (cache / "eval").mkdir(parents=True)
    folders = CacheFolders(str(cache))
    folders.settle(None)
    entry = cache / "eval" / LOG

    def stored(n: int) -> None:  # an eval's entry appended to its log, then the decision and its git: a clock tick
        with entry.open("ab") as log:
            log.write(b"\n%d\n" % n)
        time.sleep(0.01)

    return per_call(times, stored, lambda n: folders.settle({str(entry)}))


def cache(root: Path, times: int) -> float:
    store = SampleCache(root / "samples", "eval")
    store.put("0" * 40, 1, ROWS)
    return per_call(times, lambda n: None, lambda n: store.put(f"{n + 1:040x}", 1, ROWS))


def miss(root: Path, times: int) -> float:
    store = SampleCache(root / "samples", "eval")
    store.put("f" * 40, 1, ROWS)
    store.get("0" * 40, 1)  # the log indexed once, as the loop's first lookup does
    return per_call(times, lambda n: store.put(f"{n:040x}", 1, ROWS), lambda n: store.get(f"{n + 1:040x}", 1))


IDENTITY = ["-c", "user.name=b", "-c", "user.email=b@b"]
COMMIT = [*IDENTITY, "commit", "-qm", "x"]


def put_back(root: Path, times: int, kept: bool = False) -> float:
    repo = root / "repo"
    repo.mkdir()
    (repo / "prompt.md").write_text("the artifact\n")
    for args in (["init", "-q"], ["add", "-A"], COMMIT):
        subprocess.run(["git", *args], cwd=repo, check=True)
    throwaway = Throwaway(open_workspace(repo, "prompt.md"), root / "meta")
    work = throwaway.take()

    def candidate(n: int) -> None:
        (work.root / "prompt.md").write_text(f"candidate {n}\n")
        if kept:  # the KEEP, in the user's checkout
            (repo / "prompt.md").write_text(f"kept {n}\n")
            subprocess.run(["git", *IDENTITY, "commit", "-qam", f"keep {n}"], cwd=repo, check=True)

    try:
        return per_call(times, candidate, lambda n: throwaway.take())
    finally:
        throwaway.drop()


def put_back_keep(root: Path, times: int) -> float:
    return put_back(root, times, kept=True)


def carry(root: Path, times: int) -> float:
    repo = root / "repo"
    repo.mkdir()
    (repo / "prompt.md").write_text("the artifact\n")
    for args in (["init", "-q"], ["add", "-A"], COMMIT):
        subprocess.run(["git", *args], cwd=repo, check=True)
    user = open_workspace(repo, "prompt.md")
    throwaway = Throwaway(user, root / "meta")
    work = throwaway.take()
    changed = {"prompt.md": " M"}  # what the check of the throwaway checkout found: the artifact alone

    def candidate(n: int) -> None:
        (work.root / "prompt.md").write_text(f"candidate {n}\n")

    try:
        return per_call(times, candidate, lambda n: carry_artifact(work, user, changed))
    finally:
        throwaway.drop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=300)
    times = parser.parse_args().times
    for name, measure in (
        ("digest", digest),
        ("clock", clock),
        ("cache", cache),
        ("miss", miss),
        ("put-back", put_back),
        ("put-back-keep", put_back_keep),
        ("carry", carry),
    ):
        with tempfile.TemporaryDirectory() as folder:
            print(f"{name:13} {measure(Path(folder), times):8.0f} us of CPU a cycle")


if __name__ == "__main__":
    main()
