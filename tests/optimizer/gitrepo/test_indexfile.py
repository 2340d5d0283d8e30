"""An index file libgit2 cannot read (split, sparse, written over) is a GitError, and nothing more: pygit2's
half-built Index printed "Exception ignored in: <function Index.__del__>" on the user's console."""

from __future__ import annotations

import gc
from pathlib import Path

import pygit2
import pytest

from autoresearch.optimizer.gitrepo import indexfile
from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import iterations, scenario_repo, scores


def _unreadable(repo: Path, kind: str) -> Path:
    """`repo`'s index made into one libgit2 cannot read, as git makes it (or a mutator writes it)."""
    if kind == "split":
        git(repo, "update-index", "--split-index")
    elif kind == "sparse":
        git(repo, "config", "index.sparse", "true")
        git(repo, "sparse-checkout", "set", "--cone", "a")
    else:
        (repo / ".git/index").write_text("junk\n")
    return repo / ".git/index"


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("kind", ["split", "sparse", "junk"])
def test_an_index_libgit2_cannot_read_raises_a_git_error_and_leaves_no_destructor_warning(tmp_path, kind):
    repo = make_repo(tmp_path / "r", {"a/x.md": "1\n", "b/y.md": "2\n", "top.md": "3\n"})
    path = _unreadable(repo, kind)
    with pytest.raises(pygit2.GitError):
        indexfile.read(path)
    gc.collect()  # the half-built object's destructor runs here, inside the test


def test_a_readable_index_file_lists_what_it_stages(tmp_path):
    repo = make_repo(tmp_path / "r", {"a/x.md": "1\n", "top.md": "3\n"})
    index = indexfile.read(repo / ".git/index")
    assert [e.path for e in index] == ["a/x.md", "top.md"]


@pytest.mark.parametrize("kind", ["split", "junk"])
def test_a_mutator_that_rewrites_an_index_libgit2_cannot_read_prints_no_destructor_traceback(tmp_path, kind):
    written = {"prompt.md": scores(a=1), "notes.txt": "clobbered\n"}
    if kind == "junk":
        plan = {2: {"write": {**written, ".git/index": "junk\n"}}}
    else:  # git writes a split index anew
        plan = {2: {"write": written, "run": ["git add notes.txt"]}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={"notes.txt": "mine\n"})
    if kind == "split":
        git(repo, "config", "core.splitIndex", "true")
        _unreadable(repo, kind)
    done = cli(repo, "run", "--max-cycles", "2")
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 10, done.stderr
    assert [(r["decision"], r.get("error_reason")) for r in iterations(repo)] == [
        ("keep", None),
        ("error", "out-of-scope"),
    ]
    assert git(repo, "status", "--porcelain") == ""  # the index put back, as the guard does with any change to it
    assert (repo / "notes.txt").read_text() == "mine\n"
