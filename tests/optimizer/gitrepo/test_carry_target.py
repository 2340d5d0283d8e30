"""The artifact carried out of a sandboxed mutator's checkout into the user's: a new file at the artifact's
path, whatever the user had there (a hard link to a file of theirs, a named pipe), never written into it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.candidates import carry_artifact
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo


def _mutated(tmp_path: Path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "other.md": "x\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "work"), "HEAD")
    work = open_workspace(tmp_path / "work", "prompt.md")
    work.artifact_path.write_text("two\n")
    return open_workspace(repo, "prompt.md"), work


@pytest.mark.parametrize("linked", [Path("other.md"), Path("..") / "deployed.md"])
def test_a_hard_link_of_the_users_at_the_artifact_keeps_its_bytes(tmp_path, linked):
    user, work = _mutated(tmp_path)
    theirs = user.root / linked
    theirs.write_text("x\n")
    user.artifact_path.unlink()
    os.link(theirs, user.artifact_path)
    carry_artifact(work, user)
    assert (user.artifact_path.read_text(), theirs.read_text()) == ("two\n", "x\n")
    assert os.stat(theirs).st_nlink == 1


def test_a_named_pipe_at_the_artifact_is_replaced_not_opened(tmp_path):
    user, work = _mutated(tmp_path)
    user.artifact_path.unlink()
    os.mkfifo(user.artifact_path)
    carry_artifact(work, user)
    assert user.artifact_path.read_text() == "two\n"
