"""The review branch `finalize` makes: the experiment's artifact, and nothing else, on top of a base commit.

Its commits are built in memory (libgit2) from trees, never through a checkout: the user's working tree,
index, HEAD and branches are not touched, so finalize can run beside a night still running. The branch
itself moves in one compare-and-swap `git update-ref`: a kill leaves it as it was or as it is meant to
be, and a branch that changed since it was read is not overwritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pygit2
from pygit2.enums import FileMode, ObjectType

from autoresearch.optimizer.gitrepo import gitident
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing.errors import IntegrityError, InvalidInput


@dataclass(frozen=True)
class Step:
    """One commit to make: the artifact as it is in `source`. A KEEP replayed (`--series`) keeps its message
    and author (`message` None); the net change is the user's commit, with the message given."""

    source: str
    message: str | None = None


@dataclass(frozen=True)
class Made:
    branch: str
    base: str
    commits: tuple[str, ...]  # oldest first
    replaced: str | None  # the branch's tip before, when it existed


def check_name(ws: Workspace, branch: str, experiment_branch: str | None) -> str:
    """The branch's full ref, refused when it is not ours to write: checked out in a worktree (the user's
    branch, or a night's in its worktree) or the experiment's own."""
    try:
        expanded = ws.git("check-ref-format", "--branch", branch).strip()
    except IntegrityError:  # git says only that the name is bad
        expanded = None
    if expanded != branch:  # `@{-1}` is the branch checked out before: git expands it, update-ref would not
        raise InvalidInput(f"finalize: --branch {branch!r} is not a valid branch name")
    ref = f"refs/heads/{branch}"
    checked_out = {
        line.removeprefix("branch ")
        for line in ws.git("worktree", "list", "--porcelain").splitlines()
        if line.startswith("branch ")
    }
    if ref in checked_out or branch == experiment_branch:
        raise InvalidInput(f"finalize: branch {branch!r} is checked out or is the experiment's own: name another")
    if ws.lib.references.get(f"refs/tags/{branch}") is not None:  # `git push origin NAME` would not know which
        raise InvalidInput(f"finalize: --branch {branch!r} is a tag's name too: name another")
    return ref


def check_base(ws: Workspace, base: str, tip: str) -> str:
    """`base` as a commit id. It must hold the artifact as it was where its history and the experiment's (up to
    `tip`) meet: else the review would silently undo a change made to it there. A base on the experiment's own
    line (a KEEP already merged upstream) is its own meeting point: the review holds the rest."""
    repo = ws.lib
    try:
        base_id = repo.revparse_single(base).peel(pygit2.Commit).id
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
        raise InvalidInput(f"finalize: --onto {base!r} is not a commit of this repository") from None
    fork = repo.merge_base(base_id, repo.revparse_single(tip).peel(pygit2.Commit).id)
    if fork is None:
        raise InvalidInput(f"finalize: --onto {base!r} shares no history with the experiment's {tip[:12]}")
    if _artifact(repo, base_id, ws.artifact) != _artifact(repo, fork, ws.artifact):
        raise InvalidInput(
            f"finalize: {ws.artifact} changed on {base!r} since the experiment began: the review would undo that "
            "change; bring it into the experiment's branch first, or finalize onto an older commit"
        )
    return str(base_id)


def make(ws: Workspace, ref: str, base: str, steps: list[Step], force: bool) -> Made:
    """Commit `steps` one on another from `base` and point `ref` at the last one."""
    repo = ws.lib
    old = repo.references.get(ref)
    replaced = str(old.peel(pygit2.Commit).id) if old is not None else None
    if replaced is not None and not force:
        raise InvalidInput(f"finalize: branch {ref.removeprefix('refs/heads/')} exists: --force replaces it")
    # git's own lines (gitident.gits), each written as it is (`_commit`): finalize runs once, a git process is
    # nothing to it, and libgit2 would refuse an identity git takes (an empty email: `user.email = ""`)
    author, committer = gitident.gits(ws.git, "GIT_AUTHOR_IDENT"), gitident.gits(ws.git, "GIT_COMMITTER_IDENT")
    parent = repo[base].peel(pygit2.Commit)
    made: list[str] = []
    for step in steps:
        source = repo.revparse_single(step.source).peel(pygit2.Commit)
        tree = _with_artifact(repo, parent.tree, source.tree, ws.artifact)
        by, message = (_author(source), source.message) if step.message is None else (author, step.message)
        commit_id = _commit(repo, tree, parent.id, by, committer, message)
        parent = repo[commit_id].peel(pygit2.Commit)
        made.append(str(commit_id))
    ws.write("update-ref", "-m", "autoresearch finalize", ref, made[-1], replaced or "")
    return Made(ref.removeprefix("refs/heads/"), base, tuple(made), replaced)


def _author(commit: pygit2.Commit) -> str:
    """The commit's author line as it is written (its bytes that are not UTF-8 as surrogates, as `ws.git`'s)."""
    headers = commit.read_raw().partition(b"\n\n")[0].split(b"\n")
    return (
        next(line for line in headers if line.startswith(b"author "))
        .removeprefix(b"author ")
        .decode("utf-8", "surrogateescape")
    )


def _commit(
    repo: pygit2.Repository, tree: pygit2.Oid, parent: pygit2.Oid, author: str, committer: str, message: str
) -> pygit2.Oid:
    """The commit git's `commit-tree` writes of these: its lines as given, the whole object as git's commit
    takes it (gitident.as_commit_writes: what git does not take for UTF-8, a Latin-1 `user.name`'s bytes
    say, written as each byte read as Latin-1)."""
    text = f"tree {tree}\nparent {parent}\nauthor {author}\ncommitter {committer}\n\n{message}"
    return repo.odb.write(ObjectType.COMMIT, gitident.as_commit_writes(text).encode())


def _with_artifact(repo: pygit2.Repository, base: pygit2.Tree, source: pygit2.Tree, artifact: str) -> pygit2.Oid:
    """`base`'s tree with the artifact (a file or a folder) as it is in `source`, or without it."""
    index = pygit2.Index()
    index.read_tree(base)
    for path in [e.path for e in index if e.path == artifact or e.path.startswith(artifact + "/")]:
        index.remove(path)
    for path, oid, mode in _entries(source, artifact):
        index.add(pygit2.IndexEntry(path, oid, mode))
    return index.write_tree(repo)


def _entries(tree: pygit2.Tree, path: str) -> Iterator[tuple[str, pygit2.Oid, FileMode]]:
    try:
        found = tree[path]
    except KeyError:
        return
    if isinstance(found, pygit2.Tree):
        for entry in found:
            yield from _below(path, entry)
    else:
        yield path, found.id, found.filemode


def _below(prefix: str, entry: pygit2.Object) -> Iterator[tuple[str, pygit2.Oid, FileMode]]:
    path = f"{prefix}/{entry.name}"
    if isinstance(entry, pygit2.Tree):
        for inner in entry:
            yield from _below(path, inner)
    else:
        yield path, entry.id, entry.filemode


def holds(ws: Workspace, base: str, commit: str) -> bool:
    """Whether `commit` is in `base`'s history: a KEEP already merged there is not replayed."""
    base_id, commit_id = (ws.lib.revparse_single(c).peel(pygit2.Commit).id for c in (base, commit))
    return base_id == commit_id or ws.lib.descendant_of(base_id, commit_id)


def artifact_changed(ws: Workspace, older: str, newer: str) -> bool:
    repo = ws.lib
    return _artifact(repo, repo.revparse_single(older).id, ws.artifact) != _artifact(
        repo, repo.revparse_single(newer).id, ws.artifact
    )


def _artifact(repo: pygit2.Repository, commit: pygit2.Oid, artifact: str) -> str | None:
    """The artifact's object id at `commit` (a blob or a tree), None where it is absent."""
    try:
        return str(repo[commit].peel(pygit2.Commit).tree[artifact].id)
    except KeyError:
        return None
