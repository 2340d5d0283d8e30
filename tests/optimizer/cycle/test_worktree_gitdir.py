"""A candidate's worktree is checked through the git folder made for it: a mutator that replaces its `.git`
file with a repository of its own (the object store borrowed through `alternates`, a commit holding the
files it added, an index to match) would have git's status, read from that repository, name the artifact
alone; the candidate would then be evaluated in its worktree beside a `conftest.py` nobody saw."""

from __future__ import annotations

import os
import shutil

import pytest

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer.cycle.mutate import check_worktree
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo

RESULT = MutationResult("a mutation")


def _forge(root, common, libgit2_refuses=False):
    """The mutator's own repository at `root`/.git, at a commit holding every file of the worktree; one
    libgit2 cannot open (an extension git knows) has git's status read instead."""
    (root / ".git").unlink()
    git(root, "init", "-q")
    (root / ".git" / "objects" / "info" / "alternates").write_text(str(common / "objects") + "\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "forged")
    if libgit2_refuses:
        git(root, "config", "core.repositoryformatversion", "1")
        git(root, "config", "extensions.partialClone", "origin")


@pytest.mark.parametrize("how", ["a repository of its own", "the .git file pointing elsewhere", "one libgit2 refuses"])
def test_a_worktree_whose_git_folder_was_replaced_is_out_of_scope(tmp_path, how):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "tests/test_a.py": "def test(): assert False\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    ws = open_workspace(tmp_path / "w", "prompt.md")
    head = ws.head()  # as the cycle reads it before the mutator runs
    (ws.root / "tests" / "conftest.py").write_text("forged = True\n")
    if how != "the .git file pointing elsewhere":
        _forge(ws.root, repo / ".git", libgit2_refuses=how == "one libgit2 refuses")
    else:
        elsewhere = tmp_path / "elsewhere"
        shutil.copytree(tmp_path / "w", elsewhere, symlinks=True)
        _forge(elsewhere, repo / ".git")
        (ws.root / ".git").write_text(f"gitdir: {elsewhere / '.git'}\n")
    (ws.root / "prompt.md").write_text("a candidate\n")
    with pytest.raises(MutationFailed) as failed:
        check_worktree(ws, head, RESULT)
    assert failed.value.reason == "out-of-scope"
    assert ".git" in str(failed.value)


@pytest.mark.parametrize("mark", ["--assume-unchanged", "--skip-worktree"])
@pytest.mark.parametrize("version", ["2", "4"])
def test_a_tracked_file_marked_in_the_worktree_s_index_is_out_of_scope(tmp_path, mark, version):
    """A mutator without a sandbox may write its worktree's index (under .git/worktrees, which the scope
    guard leaves alone): a test it edited and marked there is one git's status never reads again."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "tests/test_a.py": "def test(): assert False\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    ws = open_workspace(tmp_path / "w", "prompt.md")
    head = ws.head()
    git(ws.root, "update-index", "--index-version", version)
    (ws.root / "tests" / "test_a.py").write_text("def test(): assert True\n")
    git(ws.root, "update-index", mark, "tests/test_a.py")
    (ws.root / "prompt.md").write_text("a candidate\n")
    with pytest.raises(MutationFailed) as failed:
        check_worktree(ws, head, RESULT)
    assert failed.value.reason == "out-of-scope"
    assert "tests/test_a.py" in str(failed.value)


def test_a_marked_file_deleted_is_out_of_scope_and_an_unmarked_worktree_is_not(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "tests/test_a.py": "def test(): assert False\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    ws = open_workspace(tmp_path / "w", "prompt.md")
    head = ws.head()
    (ws.root / "prompt.md").write_text("a candidate\n")
    assert check_worktree(ws, head, RESULT) == {"prompt.md": " M"}
    git(ws.root, "update-index", "--assume-unchanged", "tests/test_a.py")
    (ws.root / "tests" / "test_a.py").unlink()
    with pytest.raises(MutationFailed, match="tests/test_a.py"):
        check_worktree(ws, head, RESULT)


def test_with_core_ignorestat_every_file_is_marked_and_only_a_changed_one_is_out_of_scope(tmp_path):
    """`core.ignoreStat` has `git worktree add` mark every file it writes assume-unchanged: those still
    HEAD's blob (a link to its target too) are no change; one the mutator edited is."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "tests/test_a.py": "def test(): assert False\n"})
    os.symlink("tests/test_a.py", repo / "link")
    git(repo, "add", "link")
    git(repo, "commit", "-qm", "a link")
    git(repo, "config", "core.ignoreStat", "true")
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    ws = open_workspace(tmp_path / "w", "prompt.md")
    head = ws.head()
    assert "h link" in git(ws.root, "ls-files", "-v")  # marked
    (ws.root / "prompt.md").write_text("a candidate\n")
    assert check_worktree(ws, head, RESULT) == {"prompt.md": " M"}
    (ws.root / "tests" / "test_a.py").write_text("def test(): assert True\n")
    with pytest.raises(MutationFailed, match="tests/test_a.py"):
        check_worktree(ws, head, RESULT)


def test_a_file_marked_in_a_split_index_is_out_of_scope(tmp_path):
    """A split index (`git update-index --split-index`) keeps the marked entry in a shared file, where the
    worktree's index names it by position only: git lists it."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "tests/test_a.py": "def test(): assert False\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    ws = open_workspace(tmp_path / "w", "prompt.md")
    head = ws.head()
    git(ws.root, "update-index", "--assume-unchanged", "tests/test_a.py")
    git(ws.root, "update-index", "--split-index")
    (ws.root / "tests" / "test_a.py").write_text("def test(): assert True\n")
    (ws.root / "prompt.md").write_text("a candidate\n")
    with pytest.raises(MutationFailed, match="tests/test_a.py"):
        check_worktree(ws, head, RESULT)
