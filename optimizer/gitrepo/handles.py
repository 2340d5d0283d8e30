"""libgit2's handles on a repository: opened for a read or two, shared with a workspace, and freed.

A pygit2.Repository is only freed by Python's cyclic collector unless it is freed by hand (see `opened`): every
handle the loop opens a cycle goes back here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygit2
from pygit2.enums import RepositoryOpenFlag

if TYPE_CHECKING:
    from autoresearch.optimizer.gitrepo.workspace import Workspace


@contextmanager
def opened(path: Path, flags: RepositoryOpenFlag = RepositoryOpenFlag.DEFAULT) -> Iterator[pygit2.Repository]:
    """The repository at `path`, for a read or two, its libgit2 memory released on the way out.

    A pygit2.Repository refers to itself (its branches, references, remotes), so only Python's cyclic
    collector frees it, and until then it holds libgit2's config, index, attribute cache and object cache
    for the repository, 25 KiB on average: the two or three a cycle opens for the throwaway checkout waited
    there by the dozen (bench/heap_probe.py)."""
    repo = pygit2.Repository(str(path), flags)
    try:
        yield repo
    finally:
        free(repo)


CYCLE = ("branches", "references", "remotes", "submodules")  # each refers back to the repository it was made by


def free(repo: pygit2.Repository) -> None:
    """libgit2's memory of `repo` released, and the cycle through its collections broken: freed by hand, the
    Python objects of a repository (with its branches', references', remotes' and submodules' collections,
    each referring back to it) still waited for a full collection as garbage, 60-odd repositories and their
    240 collections every 100 cycles, which the collector's youngest generation never reached (it had
    passed them up before the cycle's end). `repo` is not to be used again."""
    repo.free()
    for name in CYCLE:
        repo.__dict__.pop(name, None)


def checkout_tree(repo: pygit2.Repository, treeish: pygit2.Object, **options: Any) -> None:
    """`repo.checkout_tree(treeish, **options)`, with no garbage left for the cyclic collector: pygit2's
    options for it keep their callbacks object, which refers to itself through the handle libgit2 is given
    (and, holding it, the list of paths made for libgit2), each checkout's until a full collection."""
    callbacks = pygit2.CheckoutCallbacks()
    try:
        repo.checkout_tree(treeish, callbacks=callbacks, **options)  # type: ignore[no-untyped-call]
    finally:
        callbacks.__dict__.clear()  # its options, the handle, the paths: the cycle broken


def release(ws: Workspace) -> None:
    """Release libgit2's memory of `ws.lib` if it was opened, as `opened` does: a workspace the loop makes
    anew each cycle (the throwaway checkout's) and drops."""
    repo = ws.__dict__.pop("lib", None)
    if repo is not None:
        free(repo)


def with_repository(ws: Workspace, repo: pygit2.Repository) -> Workspace:
    """`ws` anew, its `lib` the repository `repo` already opened at its root (the throwaway checkout's
    put-back): one open a cycle fewer. `release` frees it with the workspace."""
    fresh = replace(ws)
    fresh.__dict__["lib"] = repo  # where cached_property keeps what it made
    return fresh


def common_dir(ws: Workspace) -> Path:
    """The repository's common git folder (`git rev-parse --git-common-dir`), resolved: the checkout's .git,
    also when `ws` is a linked worktree (whose own git folder names it in its `commondir` file). Found once
    a workspace, as its repository is opened once (the resolving was some 25 us, asked a few times a
    cycle); a throwaway checkout whose `commondir` file changes is made anew, with a workspace of its own."""
    found = ws.__dict__.get(_COMMON)
    if found is None:
        found = ws.__dict__[_COMMON] = _common_dir(Path(ws.lib.path))
    return found


_COMMON = "common_dir"  # where `common_dir` keeps what it found, in the workspace's own dictionary


def _common_dir(git_dir: Path) -> Path:
    try:
        named = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return git_dir.resolve()
    return (git_dir / named).resolve()
