"""The candidates' check (`everything_changed`) names every new file git's status names, whatever ignore
rules a mutator wrote in its worktree or the user's files hold: libgit2's status leaves out a new file in an
ignored folder that holds a tracked file, so the answer to "does a tracked file match an ignore rule?",
kept from one check to the next, must never be one a mutator's own rules gave, nor outlive the files it
came from."""

from __future__ import annotations

import os

import pytest

from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.status import _porcelain_status, everything_changed
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo


@pytest.fixture(autouse=True)
def settled(monkeypatch):
    """The ignore files the tests write count as settled at once (they are seconds old in a real run): until
    they are, the answer is not kept at all (see autoresearch.optimizer.gitrepo.gitconfig)."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)


def _repo_with_a_tracked_file_in_an_ignored_folder(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", ".gitignore": "ign/\n"})
    (repo / "ign").mkdir()
    (repo / "ign" / "tracked").write_text("t\n")
    git(repo, "add", "-f", "ign/tracked")
    git(repo, "commit", "-qm", "a tracked file in an ignored folder")
    return repo


def _sibling(repo, where):
    git(repo, "worktree", "add", "-q", "--detach", str(where))
    return open_workspace(where, "prompt.md")


def test_a_sibling_s_own_ignore_rules_do_not_hide_the_next_worktree_s_new_file(tmp_path):
    """One candidate's mutator empties the tracked `.gitignore` in its worktree (out of scope: it is named):
    with its rules no tracked file is ignored. A sibling's worktree, whose `.gitignore` is HEAD's, must not
    be read with that answer: libgit2 would leave out the `conftest.py` its mutator put beside the tracked
    file, and the candidate would be evaluated with it."""
    repo = _repo_with_a_tracked_file_in_an_ignored_folder(tmp_path)
    first, second = _sibling(repo, tmp_path / "w1"), _sibling(repo, tmp_path / "w2")
    (first.root / ".gitignore").write_text("")
    assert everything_changed(first) == _porcelain_status(first, "--ignored") == {".gitignore": " M"}
    (second.root / "ign" / "conftest.py").write_text("forged = True\n")
    assert everything_changed(second) == _porcelain_status(second, "--ignored") == {"ign/conftest.py": "!!"}


def test_an_ignore_file_rewritten_with_its_size_and_times_is_read_again(tmp_path):
    """A process with the user's rights (a mutator without a sandbox) rewrites the user's ignore file
    (`core.excludesFile`) to ignore a folder holding a tracked file, keeping its size and setting its
    modification time back (`touch -r`): its change time still moved, and the rules are asked again."""
    ignore = tmp_path / "excludes"
    ignore.write_text("#####\n")
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "sub/tracked": "t\n"})
    git(repo, "config", "core.excludesFile", str(ignore))
    ws = _sibling(repo, tmp_path / "w")
    assert everything_changed(ws) == {}
    before = os.stat(ignore)
    ignore.write_text("/sub/\n")
    os.utime(ignore, ns=(before.st_atime_ns, before.st_mtime_ns))
    (ws.root / "sub" / "conftest.py").write_text("forged = True\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored") == {"sub/conftest.py": "!!"}


@pytest.mark.parametrize(
    "told",
    [
        lambda config: {"GIT_CONFIG_GLOBAL": str(config)},
        lambda config: {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "include.path", "GIT_CONFIG_VALUE_0": str(config)},
    ],
    ids=["GIT_CONFIG_GLOBAL", "GIT_CONFIG_COUNT"],
)
def test_an_ignore_file_git_is_told_of_in_the_environment_is_read_as_git_reads_it(tmp_path, monkeypatch, told):
    """The user's configuration may come from the environment (a CI step's `GIT_CONFIG_GLOBAL`, `git -c` down
    to a hook), which libgit2 does not read: its status named a new file beside a tracked one that git
    ignores under the `core.excludesFile` given there, as new (`??`), where git names it ignored (`!!`)."""
    ignore, config = tmp_path / "excludes", tmp_path / "told.gitconfig"
    ignore.write_text("/sub/\n")
    config.write_text(f"[core]\n\texcludesFile = {ignore}\n")
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "sub/tracked": "t\n"})
    ws = _sibling(repo, tmp_path / "w")
    (ws.root / "sub" / "conftest.py").write_text("forged = True\n")
    for name, value in told(config).items():
        monkeypatch.setenv(name, value)
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored") == {"sub/conftest.py": "!!"}
