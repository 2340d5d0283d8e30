"""`worktree: true`: the experiment runs in its own git worktree, on its own branch.

The user keeps working in their checkout all night; the loop commits to
`autoresearch/<experiment>` in `<results_dir>/worktrees/<experiment>`, and
`report` says how to merge the branch. Results stay under the main checkout's
results directory, so `status`, `logs` and `serve` work from there as usual.
"""

from __future__ import annotations

from pathlib import Path

from optimizer.workspace import Workspace, exclude


def branch(experiment: str) -> str:
    return f"autoresearch/{experiment}"


def ensure(main: Workspace, results_dir: str, experiment: str) -> Path:
    """The experiment's worktree, created from HEAD on first use and reused on resume."""
    path = main.root / results_dir / "worktrees" / experiment
    if (path / ".git").exists():
        return path
    exclude(main, results_dir)  # before the worktree appears inside it
    main.git("worktree", "prune")
    if main.git("branch", "--list", branch(experiment)).strip():
        main.git("worktree", "add", "--quiet", str(path), branch(experiment))
    else:
        main.git("worktree", "add", "--quiet", "-b", branch(experiment), str(path), "HEAD")
    return path
