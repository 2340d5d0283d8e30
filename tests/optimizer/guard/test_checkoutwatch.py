"""The sandboxed mutator's checkout checked after the mutation through its inotify watch
(autoresearch.optimizer.guard.checkoutwatch): git's status is not read when the artifact alone moved, and
whatever else a mutator did there is still found and held against it, as git's status finds it."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace

import pygit2
import pytest

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer.cycle.mutate import check_worktree
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard.checkoutwatch import CheckoutWatch
from tests.helpers.repos import git, make_repo

FILES = {"prompt.md": "p\n", "docs/a.md": "a\n", ".gitignore": "*.log\n"}
RESULT = MutationResult("a mutation")


@pytest.fixture
def sandboxed(tmp_path):
    """A throwaway checkout taken (made, or put back) and its watch started, as before a mutation."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    throwaway = Throwaway(main, repo / "results" / ".exp")
    watch = CheckoutWatch(tmp_path / "vault" / "checkout-watch")
    yield main, throwaway, watch
    watch.close()
    throwaway.drop()


def _taken(main, throwaway, watch):
    work = throwaway.take()
    watch.start(work)
    return work, main.head()


def _refuse_status(monkeypatch):
    def refused(*_args, **_kwargs):
        raise AssertionError("git's status read")

    monkeypatch.setattr(pygit2.Repository, "status", refused)


def test_the_artifact_alone_changed_reads_no_status(sandboxed, monkeypatch):
    main, throwaway, watch = sandboxed
    for n in range(2):  # a fresh checkout, then one put back
        work, head = _taken(main, throwaway, watch)
        (work.root / "prompt.md").write_text(f"candidate {n}\n")
        with monkeypatch.context() as patched:
            _refuse_status(patched)
            assert check_worktree(work, head, RESULT, watch) == {"prompt.md": " M"}


def test_an_artifact_rewritten_alike_is_no_change(sandboxed, monkeypatch):
    main, throwaway, watch = sandboxed
    work, head = _taken(main, throwaway, watch)
    (work.root / "prompt.md").write_text("p\n")
    _refuse_status(monkeypatch)
    with pytest.raises(MutationFailed) as failed:
        check_worktree(work, head, RESULT, watch)
    assert failed.value.reason == "no-change"


def _hard_link(root):
    os.unlink(root / "prompt.md")
    os.link(root / "docs" / "a.md", root / "prompt.md")
    with open(root / "prompt.md", "a") as f:  # through the artifact's name, into docs/a.md
        f.write("written through the link\n")


def _staged(root):
    subprocess.run(["git", "update-index", "--chmod=+x", "docs/a.md"], cwd=root, check=True)
    (root / "prompt.md").write_text("changed\n")


def _artifact_and(relative):
    def leave(root):
        (root / "prompt.md").write_text("changed\n")
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text("left\n")

    return leave


@pytest.mark.parametrize(
    ("leave", "named"),
    [
        (_artifact_and("docs/a.md"), "docs/a.md"),
        (_artifact_and("new.txt"), "new.txt"),
        (_artifact_and("ignored.log"), "ignored.log"),
        (_hard_link, "docs/a.md"),
        (_staged, "docs/a.md"),
    ],
    ids=["tracked", "untracked", "ignored", "hard link", "staged"],
)
def test_what_a_mutator_did_beside_the_artifact_is_still_held_against_it(sandboxed, leave, named):
    main, throwaway, watch = sandboxed
    work, head = _taken(main, throwaway, watch)
    leave(work.root)
    with pytest.raises(MutationFailed) as failed:
        check_worktree(work, head, RESULT, watch)
    assert failed.value.reason == "out-of-scope"
    assert named in str(failed.value)


def test_a_tool_cache_beside_the_artifact_is_removed_not_held_against_it(sandboxed):
    main, throwaway, watch = sandboxed
    work, head = _taken(main, throwaway, watch)
    _artifact_and("__pycache__/m.pyc")(work.root)
    assert "prompt.md" in check_worktree(work, head, RESULT, watch)
    assert not (work.root / "__pycache__" / "m.pyc").exists()


def test_a_commit_in_the_checkout_is_still_refused(sandboxed):
    main, throwaway, watch = sandboxed
    work, head = _taken(main, throwaway, watch)
    (work.root / "prompt.md").write_text("committed\n")
    git(work.root, "commit", "-qam", "by the mutator")
    with pytest.raises(MutationFailed, match="mutators must not commit"):
        check_worktree(work, head, RESULT, watch)


def test_without_inotify_git_says(sandboxed, monkeypatch):
    monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    main, throwaway, _ = sandboxed
    watch = CheckoutWatch(main.root.parent / "polled")
    work, head = _taken(main, throwaway, watch)
    (work.root / "prompt.md").write_text("changed\n")
    assert watch.artifact_alone(work) is None
    assert check_worktree(work, head, RESULT, watch) == {"prompt.md": " M"}


def test_a_watch_that_cannot_start_leaves_the_check_to_git(sandboxed):
    """git's folder for the checkout cannot be opened (its `.git` file broken before the check): the watch
    does not start, nothing is raised inside the guard's window, and the check reads git's status."""
    main, throwaway, watch = sandboxed
    work = replace(throwaway.take())  # a workspace whose repository is not open yet
    git_file = work.root / ".git"
    named = git_file.read_text()
    git_file.write_text("gitdir: /nowhere\n")
    watch.start(work)
    assert not watch.armed
    git_file.write_text(named)
    (work.root / "prompt.md").write_text("changed\n")
    assert watch.artifact_alone(work) is None


def test_a_watch_without_a_sentinel_folder_leaves_the_check_to_git(sandboxed, tmp_path):
    main, throwaway, _ = sandboxed
    (tmp_path / "blocked").write_text("a file where the folder would be\n")
    watch = CheckoutWatch(tmp_path / "blocked" / "checkout-watch")
    work, head = _taken(main, throwaway, watch)
    assert watch.unavailable
    (work.root / "prompt.md").write_text("changed\n")
    assert check_worktree(work, head, RESULT, watch) == {"prompt.md": " M"}
