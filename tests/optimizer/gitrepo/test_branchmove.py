"""A KEEP's branch moved by branchmove only while the branch names the commit the KEEP's commit was made on,
and only with its lock its own: otherwise nothing written, for libgit2 (which refuses it as before)."""

from __future__ import annotations

import pytest

from autoresearch.optimizer.gitrepo import branchmove
from autoresearch.optimizer.gitrepo.gitident import Who
from autoresearch.plumbing.errors import IntegrityError
from tests.helpers.repos import git, make_repo

WHO = Who("Test", "test@example.com", 1_700_000_000, 90)


def _state(repo):
    return [(repo / ".git" / name).read_bytes() for name in ("refs/heads/main", "logs/refs/heads/main", "logs/HEAD")]


def test_a_branch_that_moved_since_the_commit_was_made_is_not_moved(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    old = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "commit", "-q", "--allow-empty", "-m", "the user's")  # the branch moved meanwhile
    before = _state(repo)
    assert not branchmove.move(str(repo / ".git"), "refs/heads/main", old, "1" * 40, WHO, "commit: kept")
    assert _state(repo) == before and not (repo / ".git/refs/heads/main.lock").exists()


def test_a_branch_whose_lock_is_held_is_not_moved_and_git_says_why(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    old = git(repo, "rev-parse", "HEAD").strip()
    (repo / ".git/refs/heads/main.lock").write_text("a git at work\n")
    before = _state(repo)
    with pytest.raises(IntegrityError, match="cannot lock ref 'refs/heads/main': Unable to create '.*main.lock'"):
        branchmove.move(str(repo / ".git"), "refs/heads/main", old, "1" * 40, WHO, "commit: kept", timeout_ms=0)
    assert _state(repo) == before
    assert (repo / ".git/refs/heads/main.lock").read_text() == "a git at work\n"


def test_a_moved_branch_names_the_new_commit_and_both_reflogs_say_so(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    old = git(repo, "rev-parse", "HEAD").strip()
    assert branchmove.move(str(repo / ".git"), "refs/heads/main", old, "1" * 40, WHO, "commit: kept")
    line = f"{old} {'1' * 40} Test <test@example.com> 1700000000 +0130\tcommit: kept\n"
    assert _state(repo)[0] == b"1" * 40 + b"\n"
    assert all(log.decode().endswith(line) for log in _state(repo)[1:])
    assert not (repo / ".git/refs/heads/main.lock").exists()
