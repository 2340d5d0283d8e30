"""Earlier candidates kept whole on refs of the experiment's own (`search.parents: pareto`), never on a branch.

A candidate the keep rule discarded, but that is best on some test, may be the parent of a later one
(autoresearch.policies.pareto). Its worktree is gone by then, so its tree is kept as a commit whose
parent is the HEAD it was made from, on `refs/autoresearch/<experiment>/candidates/<cycle>-<index>`: no
branch, tag, index or file of the user's changes, `git clean -ffdx` and `git stash` do not see it, `git
gc` keeps it while the ref is there, and a restarted daemon finds it again (with the run directory
named in its message, where its results are). `drop` removes the refs of candidates off the front, so
there are only ever as many as the front has members.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygit2

from autoresearch.optimizer.gitrepo.merge import carry_tree, patched_tree
from autoresearch.optimizer.gitrepo.workspace import Workspace

ROOT = "refs/autoresearch"
IDENTITY = {  # our own commits, whatever identity (or none) the user's git has
    "GIT_AUTHOR_NAME": "autoresearch",
    "GIT_AUTHOR_EMAIL": "autoresearch@localhost",
    "GIT_COMMITTER_NAME": "autoresearch",
    "GIT_COMMITTER_EMAIL": "autoresearch@localhost",
}
RUN_DIR = "run_dir: "


@dataclass(frozen=True)
class Stored:
    """A candidate on its ref: `name` is `<cycle>-<index>`, `base` the HEAD it was made from."""

    name: str
    commit: str
    base: str
    run_dir: str

    @property
    def cycle(self) -> int:
        return int(self.name.split("-")[0])

    @property
    def index(self) -> int:
        return int(self.name.split("-")[1])


def prefix(experiment: str) -> str:
    return f"{ROOT}/{experiment}/candidates/"


def store(main: Workspace, experiment: str, name: str, base: str, patch: str, run_dir: str) -> Stored:
    """Keep the candidate whose diff against `base` is `patch` on its ref; returns it."""
    tree = patched_tree(main.root, base, patch, main.artifact)
    message = f"autoresearch candidate {name}\n\n{RUN_DIR}{run_dir}\n"
    commit = main.git("commit-tree", tree, "-p", base, "-m", message, env=IDENTITY)
    main.write("update-ref", prefix(experiment) + name, commit)
    return Stored(name, commit, base, run_dir)


def listed(main: Workspace, experiment: str) -> list[Stored]:
    """The experiment's stored candidates, oldest cycle first; a ref not of our making is left out."""
    out = main.git("for-each-ref", "--format=%(refname)%00%(objectname)%00%(parent)%00%(body)%01", prefix(experiment))
    found = []
    for entry in filter(None, (e.strip("\n") for e in out.split("\x01"))):
        ref, commit, base, body = (entry.split("\x00") + ["", "", ""])[:4]
        name = ref.removeprefix(prefix(experiment))
        run_dir = next((line.removeprefix(RUN_DIR) for line in body.splitlines() if line.startswith(RUN_DIR)), "")
        if _named(name) and len(base.split()) == 1 and run_dir:
            found.append(Stored(name, commit, base, run_dir))
    return sorted(found, key=lambda s: (s.cycle, s.index))


def drop(main: Workspace, experiment: str, names: list[str]) -> None:
    for name in names:
        main.write("update-ref", "-d", prefix(experiment) + name)


def carried(main: Workspace, stored: Stored) -> str | None:
    """The stored candidate's tree with its edit carried onto HEAD, or None when it conflicts with what the
    KEEPs since its day changed, or HEAD already holds it, or git cannot find its objects (a ref not of our
    making, whose parent is no commit here; a commit pruned after its ref was deleted mid-run)."""
    head = main.head()
    try:
        tree = carry_tree(main.root, stored.base, head, f"{stored.commit}^{{tree}}", main.artifact)
    except pygit2.NotFoundError:
        return None
    return None if tree is None or tree == main.git("rev-parse", "HEAD^{tree}") else tree


def _named(name: str) -> bool:
    parts = name.split("-")
    return len(parts) == 2 and all(p.isdigit() for p in parts)
