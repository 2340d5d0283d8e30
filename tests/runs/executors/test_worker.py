"""What runs in a Ray task (runs/executors/worker.py), in worker processes of its own, without a cluster."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.repos import make_repo

# a worker process: each eval's tree (each task's `fn` is `str`, which hands back its tree's path), twice, then it
# waits for a line and ends as Ray ends a finished job's workers, with nothing of its own run (os._exit)
WORKER = """\
import os, sys
from pathlib import Path
from autoresearch.runs.executors.snapshot import build
from autoresearch.runs.executors.worker import run_in_snapshot
for root in sys.argv[1:]:
    snapshot = build(Path(root), [], 10**6)
    tree, again = (run_in_snapshot(snapshot.data, snapshot.digest, {}, False, str) for _ in range(2))
    print(tree, again, Path(tree, "prompt.md").read_text(), sep="\\n", flush=True)
sys.stdin.readline()
os._exit(0)
"""


def worker(tmp_path: Path, *roots: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, *map(str, roots)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path / "tmp")},
    )


def trees(process: subprocess.Popen, count: int) -> list[tuple[str, str, str]]:
    assert process.stdout is not None
    return [
        (process.stdout.readline().strip(), process.stdout.readline().strip(), process.stdout.readline().strip())
        for _ in range(count)
    ]


def ended(process: subprocess.Popen) -> None:
    process.communicate("\n", timeout=60)


def test_a_worker_keeps_one_tree_and_the_next_worker_removes_what_an_ended_one_left(tmp_path):
    (tmp_path / "tmp").mkdir()
    first = make_repo(tmp_path / "first", {"prompt.md": "first"})
    second = make_repo(tmp_path / "second", {"prompt.md": "second"})
    ending = worker(tmp_path, first, second)
    [(tree, again, text), (other, other_again, other_text)] = trees(ending, 2)
    assert again == tree and text == "first"  # unpacked once for the first eval's tasks
    assert other_again == other != tree and other_text == "second"
    assert not Path(tree).exists()  # the next eval's tree replaced it
    ended(ending)
    assert Path(other).exists()  # the last one outlives its process, as it does when Ray ends a job

    running = worker(tmp_path, first)
    [(held, _, _)] = trees(running, 1)
    later = worker(tmp_path, second)
    [(fresh, _, _)] = trees(later, 1)
    assert not Path(other).exists()  # the next worker to make a folder removed the ended one's
    assert Path(held).exists() and Path(fresh).exists()  # and nothing of a running one's
    ended(running)
    ended(later)
