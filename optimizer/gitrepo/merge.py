"""The merge candidate: two or more siblings' patches combined onto HEAD by a three-way merge.

Everything happens in git's object store: each patch is applied to HEAD's tree
in a temporary index (`git apply --cached` with `GIT_INDEX_FILE` set), and the
resulting trees are merged in memory by libgit2 with HEAD as their common
ancestor. The user's checkout, index and refs are never touched; what is left
are unreferenced objects, which `git gc` collects.

A patch is checked before it is applied and its tree again after: a merge
must not bring in what the scope guard keeps out of a candidate (a path
outside the artifact, a symlink or submodule, a `.git` component).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from autoresearch.optimizer.gitrepo import gitcmd
from autoresearch.optimizer.gitrepo.handles import opened
from autoresearch.plumbing import owned
from autoresearch.plumbing.errors import SafetyStop

_REFUSED_MODES = {FileMode.LINK: "a symlink", FileMode.COMMIT: "a submodule"}


class UnsafePatch(SafetyStop):
    """A candidate's patch would write where no candidate may: the merge is refused."""


def merge_patches(root: Path, head: str, patches: Sequence[str], scope: str) -> str | None:
    """The id of HEAD's tree with every patch applied, or None when two of them conflict.

    `patches` are candidates' diffs against `head` (as `candidate_patch` writes them); `scope` is the
    artifact path every change must stay in. UnsafePatch when a patch leaves the scope or writes a
    symlink, a submodule or a `.git` path; IntegrityError (from git) when one does not apply to `head`.
    """
    if len(patches) < 2:
        raise ValueError(f"a merge combines two or more patches, got {len(patches)}")
    with opened(root) as repo:
        base = repo.revparse_single(head).peel(pygit2.Tree)
        for patch in patches:
            _check(pygit2.Diff.parse_diff(_terminated(patch)), scope)
        trees = [_patched_tree(root, repo, base, patch, scope) for patch in patches]
        merged: pygit2.Tree | None = trees[0]
        for tree in trees[1:]:
            if merged is None:
                break
            merged = _three_way(repo, base, merged, tree)
        return _within(base, merged, scope)


def rebase_patch(root: Path, old_head: str, new_head: str, patch: str, scope: str) -> str | None:
    """The id of `new_head`'s tree with `patch` (a candidate's diff against `old_head`) merged in three-way,
    or None when it conflicts with what changed from one to the other: a candidate mutated while the
    cycle before it was decided, carried onto that cycle's KEEP. Checked as `merge_patches` checks."""
    with opened(root) as repo:
        base = repo.revparse_single(old_head).peel(pygit2.Tree)
        _check(pygit2.Diff.parse_diff(_terminated(patch)), scope)
        ours = repo.revparse_single(new_head).peel(pygit2.Tree)
        return _within(ours, _three_way(repo, base, ours, _patched_tree(root, repo, base, patch, scope)), scope)


def _three_way(
    repo: pygit2.Repository, base: pygit2.Tree, ours: pygit2.Tree, theirs: pygit2.Tree
) -> pygit2.Tree | None:
    index = repo.merge_trees(base, ours, theirs)
    if index.conflicts is not None:
        return None
    return repo[index.write_tree(repo)].peel(pygit2.Tree)


def _within(head: pygit2.Tree, merged: pygit2.Tree | None, scope: str) -> str | None:
    """The merged tree's id, once checked against the HEAD it lands on: git follows a rename it sees between
    the merge's base and HEAD, so an edit inside the artifact can land on a file outside it (a base of a
    forged candidate ref's choosing, or a file the user's own commit moved out of the artifact)."""
    if merged is None:
        return None
    _check(head.diff_to_tree(merged), scope)
    return str(merged.id)


def tree_patch(root: Path, head: str, tree: str) -> str:
    """The merged tree as a patch against `head`, to apply and record like any candidate's."""
    return gitcmd.run(root, ("diff", "--binary", "--no-renames", head, tree))


def _patched_tree(root: Path, repo: pygit2.Repository, base: pygit2.Tree, patch: str, scope: str) -> pygit2.Tree:
    with owned.temporary("autoresearch-merge-") as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        patch_file = Path(tmp) / "candidate.patch"
        patch_file.write_text(_terminated(patch), encoding="utf-8", errors="surrogateescape")
        gitcmd.run(root, ("read-tree", str(base.id)), env=env)
        gitcmd.run(root, ("apply", "--cached", "--binary", "--", str(patch_file)), env=env)
        tree = repo[gitcmd.run(root, ("write-tree",), env=env)].peel(pygit2.Tree)
    _check(base.diff_to_tree(tree), scope)  # what was applied, as git read it
    return tree


def _check(diff: pygit2.Diff, scope: str) -> None:
    for delta in diff.deltas:
        for path in {delta.old_file.path, delta.new_file.path}:
            _check_path(path, scope)
        refused = _REFUSED_MODES.get(FileMode(delta.new_file.mode)) if delta.new_file.mode else None
        if refused:
            raise UnsafePatch(f"merge refused: {delta.new_file.path} would become {refused}")


def _check_path(path: str, scope: str) -> None:
    parts = path.split("/")
    if any(part.lower().rstrip(". ") == ".git" for part in parts):
        raise UnsafePatch(f"merge refused: the patch writes {path!r}, a path inside .git")
    if ".." in parts or (path != scope and not path.startswith(scope.rstrip("/") + "/")):
        raise UnsafePatch(f"merge refused: the patch changes {path!r}, outside the artifact {scope!r}")


def _terminated(patch: str) -> str:
    """git apply needs the final newline that `candidate_patch` strips."""
    return patch if patch.endswith("\n") else patch + "\n"


def patched_tree(root: Path, head: str, patch: str, scope: str) -> str:
    """The id of `head`'s tree with `patch` (a candidate's diff against it) applied, checked as a merge's is:
    a candidate stored whole (autoresearch.optimizer.gitrepo.candidate_refs)."""
    with opened(root) as repo:
        _check(pygit2.Diff.parse_diff(_terminated(patch)), scope)
        return str(_patched_tree(root, repo, repo.revparse_single(head).peel(pygit2.Tree), patch, scope).id)


def carry_tree(root: Path, base: str, head: str, tree: str, scope: str) -> str | None:
    """The id of `head`'s tree with what `tree` changed from `base`'s merged in three-way, or None when it
    conflicts with what changed from `base` to `head`: an earlier candidate carried onto today's HEAD."""
    with opened(root) as repo:
        old = repo.revparse_single(base).peel(pygit2.Tree)
        theirs = repo.revparse_single(tree).peel(pygit2.Tree)
        _check(old.diff_to_tree(theirs), scope)
        ours = repo.revparse_single(head).peel(pygit2.Tree)
        return _within(ours, _three_way(repo, old, ours, theirs), scope)
