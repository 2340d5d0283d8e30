"""What the daemon holds of the objects libgit2 read: bounded, not a cache of 256 MiB filled a cycle at a time."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.repos import make_repo

COMMITS = 3000

# In a process of its own: libgit2's cache is one per process, and another test's reads would count.
READ = """
import sys
import pygit2
from autoresearch.plumbing import heap
heap.bound_git_cache()
repo = pygit2.Repository(sys.argv[1])
for commit in repo.walk(repo.references["refs/heads/night"].target):
    commit.tree  # a cycle reads HEAD's commit and its tree
print(pygit2.settings.cached_memory[0], heap.GIT_CACHE)
"""


def test_the_commits_and_trees_libgit2_read_are_held_to_a_small_cache(tmp_path):
    """A night commits a KEEP every few cycles and reads each new commit and tree; libgit2 kept every one of
    them (about 0.8 KiB a cycle in bench/heap_probe.py), in memory neither Python nor tracemalloc sees."""
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    stream = "".join(
        f"commit refs/heads/night\ncommitter a <a@b> {n} +0000\ndata {len(str(n))}\n{n}\n"
        f"M 100644 inline a.txt\ndata {len(str(n)) + 1}\n{n}\n\n"
        for n in range(COMMITS)
    )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream, text=True, check=True)
    held, bound = map(
        int,
        subprocess.run(
            [sys.executable, "-c", READ, str(repo)], capture_output=True, text=True, check=True
        ).stdout.split(),
    )
    assert held <= bound <= 1 << 20, f"{held} bytes cached"
