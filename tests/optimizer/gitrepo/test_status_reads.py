"""The candidates' check (`everything_changed`) reads no more than it must a cycle: no path resolved, the
user's ignore file found once, and the tracked files asked against the ignore rules again only when a
commit could change the answer; and it still names what `git status --ignored` names."""

from __future__ import annotations

import os
import pathlib

import pygit2

from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.status import _porcelain_status, everything_changed
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo

FILES = {"prompt.md": "p\n", "docs/a.md": "a\n", "ign/tracked": "t\n"}


def _worktree(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "w"))
    return repo, open_workspace(tmp_path / "w", "prompt.md")


def _commit(repo, worktree, relative, text):
    (repo / relative).write_text(text)
    git(repo, "add", "-f", relative)
    git(repo, "commit", "-qm", relative)
    git(worktree, "checkout", "-q", "--detach", git(repo, "rev-parse", "HEAD").strip())


def _asked(monkeypatch):
    asked = []
    original = pygit2.Repository.path_is_ignored
    monkeypatch.setattr(
        pygit2.Repository, "path_is_ignored", lambda repo, path: asked.append(path) or original(repo, path)
    )
    return asked


def test_a_worktree_is_read_without_resolving_its_common_folder(tmp_path, monkeypatch):
    """The common folder's `info/exclude` is found through the worktree's `commondir` as written (`../..`):
    a rule written there that a tracked file matches still sends the check to git."""
    repo, ws = _worktree(tmp_path)
    (ws.root / "docs" / "new").write_text("n\n")
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("docs/\n")
    expected = _porcelain_status(ws, "--ignored")
    assert expected["docs/new"] == "!!"

    def refused(*_args, **_kwargs):
        raise AssertionError("a path resolved")

    monkeypatch.setattr(os.path, "realpath", refused)
    assert everything_changed(ws) == expected


def test_the_users_ignore_file_is_found_once_until_the_environment_changes(tmp_path, monkeypatch):
    homes = []
    home = pathlib.Path.home
    monkeypatch.setattr(pathlib.Path, "home", classmethod(lambda cls: homes.append(1) or home()))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "one"))
    assert gitconfig.users_git_file("ignore") == tmp_path / "one" / ".config" / "git" / "ignore"
    assert gitconfig.users_git_file("ignore") == tmp_path / "one" / ".config" / "git" / "ignore"
    assert len(homes) <= 1
    monkeypatch.setenv("HOME", str(tmp_path / "two"))
    assert gitconfig.users_git_file("ignore") == tmp_path / "two" / ".config" / "git" / "ignore"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert gitconfig.users_git_file("ignore") == tmp_path / "xdg" / "git" / "ignore"


def test_a_keep_that_only_rewrites_a_file_asks_no_tracked_file_again(tmp_path, monkeypatch):
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)  # the ignore files `git init` just wrote count as settled
    repo, ws = _worktree(tmp_path)
    asked = _asked(monkeypatch)
    everything_changed(ws)
    asked.clear()
    _commit(repo, ws.root, "prompt.md", "a KEEP\n")
    (ws.root / "prompt.md").write_text("the next candidate\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored") == {"prompt.md": " M"}
    assert asked == []


def test_a_commit_that_adds_or_changes_an_ignore_file_asks_again(tmp_path, monkeypatch):
    """`ign/tracked` is tracked: once a committed `.gitignore` ignores its folder, libgit2 would leave out a
    new file beside it, which git names `!!`; and once the rule is gone, that file is `??` again."""
    repo, ws = _worktree(tmp_path)
    (ws.root / "ign" / "new").write_text("n\n")
    assert everything_changed(ws)["ign/new"] == "??"
    _commit(repo, ws.root, ".gitignore", "ign/\n")
    (ws.root / "ign" / "new").write_text("n\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored")
    assert everything_changed(ws)["ign/new"] == "!!"
    _commit(repo, ws.root, ".gitignore", "*.log\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored")
    assert everything_changed(ws)["ign/new"] == "??"


def test_a_commit_that_adds_a_file_asks_again(tmp_path, monkeypatch):
    """A new tracked file may itself match a rule (added with `-f` in an ignored folder)."""
    repo, ws = _worktree(tmp_path)
    _commit(repo, ws.root, ".gitignore", "more/\n")
    (ws.root / "more").mkdir()
    (ws.root / "more" / "new").write_text("n\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored") == {"more/new": "!!"}
    (repo / "more").mkdir()
    _commit(repo, ws.root, "more/kept", "k\n")
    (ws.root / "more" / "new").write_text("n\n")
    assert everything_changed(ws) == _porcelain_status(ws, "--ignored") == {"more/new": "!!"}
