"""Cycles of a scope guard as the loop drives it: a change, the settle and the arm, the undo and the disarm."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import rescue, scope


def armed_cycles(
    guard: scope.Guard, runs: Path, cycles: int, change: Callable[[int], None], watched: Path
) -> list[tuple[int, int]]:
    """`cycles` cycles of `change(n)`, each settled and armed with the run directory `runs/run-<n>`; the last
    is left armed, as a kill during its mutation leaves it. Returns `watched`'s (inode, size) after each arm."""
    after = []
    for n in range(cycles):
        change(n)
        guard.settle()
        guard.arm(runs / f"run-{n}")
        st = os.stat(watched)
        after.append((st.st_ino, st.st_size))
        if n < cycles - 1:
            rescue.undo_all(guard, runs / f"run-{n}")
            guard.disarm()
    return after


def start_after_a_kill(repo: Path, folder: Path) -> tuple[list[str], Path]:
    """What a start does when the last daemon was killed during a mutation: the guard resumed from its folder,
    the mutation's changes undone, the journal disarmed. Returns the changed paths (relative to `repo`, sorted)
    and the run directory they were saved under."""
    resumed = scope.Guard.resume(open_workspace(repo, "prompt.md"), folder)
    assert resumed is not None
    guard, run_dir = resumed
    changes, _ = rescue.undo_all(guard, run_dir)
    guard.disarm()
    return sorted(os.path.relpath(c.path, repo) for c in changes), run_dir
