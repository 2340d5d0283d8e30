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
    return [_add(main, meta, i) for i in range(k)]


def add_tree(main: Workspace, meta: Path, index: int, tree: str) -> Workspace:
    """One more worktree at HEAD, holding `tree`'s files as a mutator would leave them (changed in the
    working tree, not staged): a merge candidate, whose tree was built in the object store."""
    ws = _add(main, meta, index)
    ws.git("read-tree", "-u", "--reset", tree)
    ws.git("reset", "--quiet")
    return ws


def _add(main: Workspace, meta: Path, index: int) -> Workspace:
    path = folder(meta) / str(index)
    path.parent.mkdir(parents=True, exist_ok=True)
    main.git("worktree", "add", "--quiet", "--detach", str(path), main.head())
    return open_workspace(path, main.artifact)


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
