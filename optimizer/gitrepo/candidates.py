"""The git worktrees of a cycle's parallel candidates: made from HEAD, detached, under the experiment's
own folder (inside the results directory, which the scope guard and `git status` ignore), and removed
when the cycle is decided. The user's checkout is never a candidate's workspace.

A daemon killed mid-cycle leaves them behind: `clear` (run before every cycle and at start-up) removes
whatever is there, so a resumed run starts the cycle afresh from HEAD.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from autoresearch.optimizer.gitrepo.workspace import Workspace, open_workspace

FOLDER = "candidates"


def folder(meta: Path) -> Path:
    return meta / FOLDER


def make(main: Workspace, meta: Path, k: int) -> list[Workspace]:
    """K fresh worktrees at HEAD, each a Workspace on the same artifact path."""
    clear(main, meta)
    spaces = []
    for i in range(k):
        path = folder(meta) / str(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        main.git("worktree", "add", "--quiet", "--detach", str(path), main.head())
        spaces.append(open_workspace(path, main.artifact))
    return spaces


def clear(main: Workspace, meta: Path) -> list[str]:
    """Remove every candidate worktree (and git's record of it); returns what was removed."""
    root = folder(meta)
    if not root.exists():
        return []
    removed = []
    for path in sorted(p for p in root.iterdir()):
        if (path / ".git").is_file():
            main.git("worktree", "remove", "--force", str(path))
        if path.exists():  # never registered, or half made by a killed `git worktree add`
            shutil.rmtree(path)
        removed.append(path.name)
    main.git("worktree", "prune")
    return removed
