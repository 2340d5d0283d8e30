"""HEAD read once where a cycle needs its branch and commit together, yet read anew at every check: a HEAD
the user or a mutator moves between two checks is still seen at the second. The artifact's entry at a
commit is read once (a KEEP's known from what it committed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.heads import head_moved, head_ref, head_state, switched_from
from autoresearch.optimizer.gitrepo.workspace import (
    Entry,
    artifact_id,
    artifact_modified,
    artifact_size,
    blob_id,
    commit_artifact,
    head_entry,
    open_workspace,
)
from tests.helpers.repos import git, make_repo


def test_head_state_is_the_branch_and_commit_git_names(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    ws = open_workspace(repo, "prompt.md")
    branch = git(repo, "symbolic-ref", "HEAD").strip()
    assert head_state(ws) == (branch, git(repo, "rev-parse", "HEAD").strip())
    assert head_ref(ws) == branch
    git(repo, "checkout", "--quiet", "--detach")
    assert head_state(ws) == (None, git(repo, "rev-parse", "HEAD").strip())
    assert head_ref(ws) is None


def test_a_commit_made_between_two_reads_is_seen_at_the_second(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    ws = open_workspace(repo, "prompt.md")
    branch, before = head_state(ws)
    (repo / "other.md").write_text("the user's\n")
    git(repo, "add", "other.md")
    git(repo, "commit", "--quiet", "-m", "the user's commit")
    after = git(repo, "rev-parse", "HEAD").strip()
    assert head_state(ws) == (branch, after)
    assert switched_from(ws, branch, before) == (None, after)  # still on the branch: the commit is the caller's check
    assert (
        head_moved(ws, branch, before)
        == f"on branch {branch.removeprefix('refs/heads/')} moved from {before[:10]} to {after[:10]} ('the user's commit')"
    )


def test_a_branch_switched_to_between_two_reads_is_seen_at_the_second(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    ws = open_workspace(repo, "prompt.md")
    branch, sha = head_state(ws)
    git(repo, "checkout", "--quiet", "-b", "elsewhere")
    assert switched_from(ws, branch, sha) == (
        f"HEAD is on branch elsewhere at {sha[:10]}, not on branch {branch.removeprefix('refs/heads/')}",
        sha,
    )
    git(repo, "checkout", "--quiet", "--detach")
    assert (
        switched_from(ws, branch, sha)[0]
        == f"HEAD is detached at {sha[:10]}, not on branch {branch.removeprefix('refs/heads/')}"
    )


def test_heads_artifact_entry_is_read_once_a_commit_but_head_every_time(tmp_path):
    """The artifact's entry at HEAD is held by the commit's id (a commit never changes): a fresh handle on the
    repository answers with the commit's and the tree's objects gone, while HEAD itself is read every time."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "other.md": "x\n"})
    ws = open_workspace(repo, "prompt.md")
    assert (artifact_id(ws), artifact_size(ws, "HEAD")) == (git(repo, "rev-parse", "HEAD:prompt.md").strip(), 1)
    (repo / "prompt.md").write_text("one\ntwo\n")
    git(repo, "commit", "--quiet", "-am", "two lines")
    assert (artifact_id(ws), artifact_size(ws, "HEAD")) == (git(repo, "rev-parse", "HEAD:prompt.md").strip(), 2)
    assert not artifact_modified(ws)
    objects = [_loose(repo, git(repo, "rev-parse", rev).strip()) for rev in ("HEAD", "HEAD^{tree}")]
    kept = [(path, path.read_bytes()) for path in objects]
    for path in objects:
        path.unlink()
    try:
        fresh = open_workspace(repo, "prompt.md")
        assert (artifact_id(fresh), artifact_size(fresh, "HEAD")) == (artifact_id(ws), 2)
    finally:
        for path, data in kept:
            path.write_bytes(data)


def _loose(repo: Path, oid: str) -> Path:
    return repo / ".git" / "objects" / oid[:2] / oid[2:]


@pytest.mark.parametrize("bits", [0o644, 0o755], ids=["plain", "program"])
def test_a_keeps_entry_is_known_from_the_file_it_committed_without_reading_the_commit_back(tmp_path, bits):
    """A KEEP made in-process of the file evaluated (its blob id and permission bits, which the commit refuses
    others than) gives its commit's entry of the artifact at once: the next cycle's checks do not read the
    new commit and tree back from disk. The entry is the one git reads."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "other.md": "x\n"})
    ws = open_workspace(repo, "prompt.md")
    (repo / "prompt.md").write_text("one\nkept\n")
    (repo / "prompt.md").chmod(bits)
    sha = commit_artifact(ws, f"kept, mode {bits:o}", (blob_id(repo / "prompt.md"), bits))  # a commit no test makes
    assert sha == git(repo, "rev-parse", "HEAD").strip()
    objects = [_loose(repo, git(repo, "rev-parse", rev).strip()) for rev in ("HEAD", "HEAD^{tree}")]
    kept = [(path, path.read_bytes()) for path in objects]
    for path in objects:
        path.unlink()
    try:
        entry = head_entry(open_workspace(repo, "prompt.md"))
    finally:
        for path, data in kept:
            path.write_bytes(data)
    mode, _, blob = git(repo, "ls-tree", "HEAD", "prompt.md").split()[:3]
    assert entry == Entry(blob, int(mode, 8), False)


def test_a_checkouts_head_is_told_by_its_file_where_it_names_the_commit_detached_else_by_libgit2(tmp_path):
    """A candidate's checkout (a linked worktree, HEAD detached) is at a commit when its HEAD's file names it;
    a commit made there, or HEAD moved elsewhere, is seen; a HEAD written another way (a branch checked out at
    the same commit) is resolved as libgit2 resolves it."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    sha = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"), sha)
    ws = open_workspace(tmp_path / "w", "prompt.md")
    assert ws.head_is(sha) and not ws.head_is("0" * 40)
    (tmp_path / "w" / "prompt.md").write_text("two\n")
    git(tmp_path / "w", "commit", "-qam", "by the mutator")
    assert not ws.head_is(sha) and ws.head_is(git(tmp_path / "w", "rev-parse", "HEAD").strip())
    git(tmp_path / "w", "checkout", "-q", "--detach", sha)
    git(tmp_path / "w", "checkout", "-q", "-b", "side")
    assert (Path(ws.git_dir) / "HEAD").read_text() == "ref: refs/heads/side\n" and ws.head_is(sha)
