"""A directory artifact's result-cache key, timed: the loop takes one before each eval and one after it.

A temporary repository with a 20-file artifact folder beside 200 other files; each call edits one file of the
artifact and takes its key. Printed: the wall time and the CPU (this process's and its git processes') a call.
Usage: python bench/directory_key.py [--calls N]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.gitrepo.workspace import open_workspace


def cpu_s() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def make_repo(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.name", "bench")
    git("config", "user.email", "bench@example.com")
    (root / "skill").mkdir()
    for n in range(20):
        (root / "skill" / f"f{n}.md").write_text(f"file {n}\n" * 20)
    for n in range(200):
        (root / f"other{n}.txt").write_text("x\n")
    git("add", "-A")
    git("commit", "-qm", "init")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_repo(root)
        ws = open_workspace(root, "skill")
        started, cpu = time.perf_counter(), cpu_s()
        for n in range(args.calls):
            (root / "skill" / "f0.md").write_text(f"edit {n}\n")
            artifact_key(ws)
        wall, cpu = time.perf_counter() - started, cpu_s() - cpu
    print(f"a key: {wall / args.calls * 1e3:.2f} ms wall, {cpu / args.calls * 1e3:.2f} ms CPU (with its git processes)")


if __name__ == "__main__":
    main()
