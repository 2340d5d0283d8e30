"""A repository the loop opens for a read or two gives libgit2's memory back when it is done, not when Python's
cyclic collector gets to it: a pygit2.Repository refers to itself, and the two or three a cycle opens for the
throwaway checkout held some 25 KiB each while they waited, by the dozen."""

from __future__ import annotations

import gc

import pygit2
import pytest

from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.handles import opened
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo


@pytest.fixture
def no_collector():
    gc.disable()  # what is given back here is given back without it
    yield
    gc.enable()


def cached() -> int:
    """The bytes of libgit2's object cache, over every repository this process opened."""
    return int(pygit2.settings.cached_memory[0])


def test_a_repository_opened_for_a_read_gives_its_object_cache_back(tmp_path, no_collector):
    root = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    before = cached()
    with opened(root) as repo:
        repo.revparse_single("HEAD").peel(pygit2.Tree)
        assert cached() > before
    assert cached() == before


def test_the_throwaway_checkout_of_the_cycle_before_a_keep_gives_its_object_cache_back(
    tmp_path, no_collector, monkeypatch
):
    """After a DROP the put-back keeps its repository open (HEAD's objects, read again each cycle, are
    cached once); after a KEEP it opens one anew, and the one before gives back what the cycle read."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)  # the configuration files as a real run's: seconds old
    root = make_repo(tmp_path / "r", {"prompt.md": "p\n", "docs/a.md": "a\n"})
    throwaway = Throwaway(open_workspace(root, "prompt.md"), root / "results" / ".exp")
    first = throwaway.take()
    first.lib.revparse_single("HEAD:docs").peel(pygit2.Tree)  # what a cycle reads through it, besides the put-back
    read = cached()
    assert read > 0
    first.artifact_path.write_text("dropped\n")
    assert throwaway.take() is first and cached() == read  # a DROP: the same objects, held once
    (root / "prompt.md").write_text("kept\n")
    git(root, "commit", "-qam", "keep")
    second = throwaway.take()
    assert second is not first and "lib" not in first.__dict__  # its repository freed (handles.release)
    throwaway.drop()
