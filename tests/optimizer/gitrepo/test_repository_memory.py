"""A repository the loop opens for a read or two gives libgit2's memory back when it is done, not when Python's
cyclic collector gets to it: a pygit2.Repository refers to itself, and the two or three a cycle opens for the
throwaway checkout held some 25 KiB each while they waited, by the dozen."""

from __future__ import annotations

import gc

import pygit2
import pytest

from autoresearch.optimizer.cycle import loop
from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.handles import opened
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo
from tests.optimizer.unit import experiment, lines, scores, write


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
    cached once); after a KEEP it keeps the handle (opening one anew was some 70-100 us a KEEP) and gives back
    what the cycle read."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)  # the configuration files as a real run's: seconds old
    before = cached()
    root = make_repo(tmp_path / "r", {"prompt.md": "p\n", "docs/a.md": "a\n"})
    main = open_workspace(root, "prompt.md")
    throwaway = Throwaway(main, root / "results" / ".exp")
    first = throwaway.take()
    repo = first.lib
    repo.revparse_single("HEAD:docs").peel(pygit2.Tree)  # what a cycle reads through it, besides the put-back
    read = cached()
    assert read > before
    first.artifact_path.write_text("dropped\n")
    assert throwaway.take() is first and cached() == read  # a DROP: the same objects, held once
    (root / "prompt.md").write_text("kept\n")
    git(root, "commit", "-qam", "keep")
    second = throwaway.take()
    assert second is first and second.lib is repo  # not opened anew
    main.lib.free()  # what the user's checkout read for the put-back, HEAD's new commit and trees
    assert cached() == before  # the checkout's repository gave its objects back
    throwaway.drop()


def _garbage() -> dict[str, int]:
    """pygit2's objects that wait for the cyclic collector (counted before and after a collection)."""

    def counts() -> dict[str, int]:
        kinds = (pygit2.Repository, pygit2.CheckoutCallbacks)
        return {k.__name__: sum(isinstance(o, k) for o in gc.get_objects()) for k in kinds}

    before = counts()
    gc.collect()
    return {kind: n - counts()[kind] for kind, n in before.items()}


def test_the_loops_cycles_leave_no_repository_nor_checkout_for_the_collector(tmp_path, no_collector):
    """Each repository the loop frees by hand is freed whole, the cycle through its collections of branches,
    references, remotes and submodules broken, and each checkout's options (the put-back's, a linked
    worktree's) with it: 60-odd repositories and 50-odd checkouts every 100 cycles waited for a full
    collection, holding libgit2's memory outside Python's heap."""
    steps = {c: write(scores(a=c) if c % 2 == 0 else scores(a=0, b=c), f"cycle {c}") for c in range(2, 12)}
    session = experiment(tmp_path, scores(a=0), steps, "stop: {max_cycles: 11, max_convergence: 0}\n")
    gc.collect()
    loop.run(session)
    decisions = {line["decision"] for line in lines(session)}
    garbage = _garbage()
    session.close()
    assert {"keep", "drop"} <= decisions
    assert garbage == {"Repository": 0, "CheckoutCallbacks": 0}, garbage
