"""`worktree: true`: the experiment runs in its own git worktree, on its own branch.

The user keeps working in their checkout all night; the loop commits to
`autoresearch/<experiment>` in `<results_dir>/worktrees/<experiment>`, and
`report` says how to merge the branch. Results stay under the main checkout's
results directory, so `status`, `logs` and `serve` work from there as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.gitrepo.workspace import Workspace, exclude


def branch(experiment: str) -> str:
    return f"autoresearch/{experiment}"


def _path(main: Workspace, results_dir: str, experiment: str) -> Path:
    return main.root / results_dir / "worktrees" / experiment


@dataclass(frozen=True)
class Before:
    """What existed before `ensure`, so that a run that then cannot start takes back what it made."""

    main: Workspace
    results_dir: str
    experiment: str
    worktree: bool
    branch: bool
    folders: tuple[Path, ...]  # the folders `git worktree add` will create, outermost first

    def take_back(self) -> None:
        if self.worktree:
            return
        path = _path(self.main, self.results_dir, self.experiment)
        if (path / ".git").exists():
            self.main.git("worktree", "remove", "--force", str(path))
        if not self.branch and self.main.git("branch", "--list", branch(self.experiment)).strip():
            self.main.git("branch", "-D", "--quiet", branch(self.experiment))
        for folder in reversed(self.folders):
            try:
                folder.rmdir()
            except OSError:  # something else is in it now
                pass


def before(main: Workspace, results_dir: str, experiment: str) -> Before:
    path = _path(main, results_dir, experiment)
    folders = tuple(p for p in (main.root / results_dir, path.parent) if not p.exists())
    has_branch = bool(main.git("branch", "--list", branch(experiment)).strip())
    return Before(main, results_dir, experiment, (path / ".git").exists(), has_branch, folders)


def ensure(main: Workspace, results_dir: str, experiment: str) -> Path:
    """The experiment's worktree, created from HEAD on first use and reused on resume."""
    path = _path(main, results_dir, experiment)
    if (path / ".git").exists():
        return path
    exclude(main.root, results_dir)  # before the worktree appears inside it
    main.git("worktree", "prune")
    if main.git("branch", "--list", branch(experiment)).strip():
        main.git("worktree", "add", "--quiet", str(path), branch(experiment))
    else:
        main.git("worktree", "add", "--quiet", "-b", branch(experiment), str(path), "HEAD")
    return path
