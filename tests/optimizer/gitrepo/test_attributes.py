"""The in-process writes' question whether an attribute converts the artifact (autoresearch.optimizer.gitrepo.
attributes) is asked of libgit2 once while its files are unchanged, and again as soon as one changes."""

from __future__ import annotations

import os

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from autoresearch.optimizer.gitrepo import attributes, direct, gitconfig
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git, make_repo


@pytest.fixture
def settled(monkeypatch):
    """Files written by the test count as settled at once (they are seconds old in a real run)."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)


class Asks:
    """libgit2's answer, counted."""

    def __init__(self, answer: bool) -> None:
        self.answer, self.calls = answer, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.answer


def _converts(repo, asks, named=None):
    ws = open_workspace(repo, "d/p.md")
    return attributes.converts(ws.lib, ws.root, repo / ".git", ws.artifact, named, asks)


def test_the_answer_is_kept_while_the_attributes_files_and_the_index_are_unchanged(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"d/p.md": "p\n", ".gitattributes": "*.md -text\n"})
    asks = Asks(False)
    assert not _converts(repo, asks) and not _converts(repo, asks)
    assert asks.calls == 1


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda repo, tmp: (repo / ".gitattributes").write_text("*.md ident\n"), id="top-file"),
        pytest.param(lambda repo, tmp: (repo / "d/.gitattributes").write_text("p.md ident\n"), id="folder-file"),
        pytest.param(lambda repo, tmp: (repo / ".git/info/attributes").write_text("*.md ident\n"), id="info"),
        pytest.param(lambda repo, tmp: (tmp / "named").write_text("*.md ident\n"), id="core-attributes-file"),
        pytest.param(lambda repo, tmp: git(repo, "rm", "-q", "--cached", ".gitattributes"), id="index"),
    ],
)
def test_a_change_to_any_file_the_answer_comes_from_asks_again(tmp_path, settled, change):
    repo = make_repo(tmp_path / "r", {"d/p.md": "p\n", ".gitattributes": "*.md -text\n"})
    named = str(tmp_path / "named")
    asks = Asks(False)
    assert not _converts(repo, asks, named)
    change(repo, tmp_path)
    assert not _converts(repo, asks, named)
    assert asks.calls == 2


def test_a_file_changed_within_the_last_second_is_asked_again(tmp_path):
    """Its times may not move at a write in the same clock tick: the answer is not kept."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "p\n", ".gitattributes": "*.md -text\n"})
    asks = Asks(False)
    _converts(repo, asks)
    _converts(repo, asks)
    assert asks.calls == 2


def test_without_an_attributes_file_libgit2_is_not_asked(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"d/p.md": "p\n"})
    asks = Asks(True)
    assert not _converts(repo, asks)
    assert asks.calls == 0


def test_an_attribute_written_mid_run_hands_the_next_keep_to_git(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n", ".gitattributes": "*.md -text\n"})
    ws = open_workspace(repo, "d/p.md")
    (repo / "d/p.md").write_text("two\n")
    assert direct.commit(ws, "kept") is not None  # in-process: nothing converts the artifact
    (repo / ".gitattributes").write_text("*.md ident\n")
    (repo / "d/p.md").write_text("three\n")
    before = git(repo, "rev-parse", "HEAD")
    assert direct.commit(ws, "kept again") is None  # git's: `ident` converts it
    assert git(repo, "rev-parse", "HEAD") == before
    assert os.path.exists(repo / "d/p.md")


@pytest.fixture
def system_folder(tmp_path):
    """libgit2's system folder (where it finds the system's `gitattributes`) a folder of the test's."""
    folder = tmp_path / "etc"
    folder.mkdir()
    was = pygit2.settings.search_path[ConfigLevel.SYSTEM]
    pygit2.settings.search_path[ConfigLevel.SYSTEM] = str(folder)
    yield folder
    pygit2.settings.search_path[ConfigLevel.SYSTEM] = was


def test_the_systems_attributes_file_alone_hands_the_keep_to_git(tmp_path, system_folder):
    (system_folder / "gitattributes").write_text("*.md ident\n")
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n"})
    (repo / "d/p.md").write_text("two\n")
    assert direct.commit(open_workspace(repo, "d/p.md"), "kept") is None


def test_an_attributes_file_only_in_the_index_hands_the_keep_and_the_drop_to_git(tmp_path, settled):
    """Staged and deleted from the tree, not at HEAD: git reads the index's `.gitattributes` (`ident` here
    writes the blob with `$Id$` and checks it out with HEAD's sha in it)."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n"})
    (repo / "d/.gitattributes").write_text("*.md ident\n")
    git(repo, "add", "d/.gitattributes")
    (repo / "d/.gitattributes").unlink()
    (repo / "d/p.md").write_text("$Id: 0123 $\n")
    ws = open_workspace(repo, "d/p.md")
    assert direct.commit(ws, "kept") is None
    assert not direct.restore(ws)
    assert (repo / "d/p.md").read_text() == "$Id: 0123 $\n"


def test_a_rewrite_keeping_the_size_modification_time_and_inode_is_read_anew(tmp_path, settled):
    """libgit2 keeps an attributes file it read by its modification time, size and inode (`cp -p`, `rsync
    -t` over it keep all three): asked again, it reads the file anew as git does."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n", ".gitattributes": "*.md -text\n"})
    ws = open_workspace(repo, "d/p.md")
    (repo / "d/p.md").write_text("two\n")
    assert direct.commit(ws, "kept") is not None
    was = os.stat(repo / ".gitattributes")
    with open(repo / ".gitattributes", "r+") as file:
        file.write("*.md ident\n")
    os.utime(repo / ".gitattributes", ns=(was.st_atime_ns, was.st_mtime_ns))
    (repo / "d/p.md").write_text("$Id: 0123 $\n")
    assert direct.commit(ws, "kept again") is None


def test_an_index_libgit2_cannot_read_hands_the_keep_and_the_drop_to_git(tmp_path, settled):
    """A split index (`git update-index --split-index`) with a `.gitattributes` in the tree: libgit2's answer
    fails on the index (it raised out of the KEEP, a traceback), and git's commit and checkout read it."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n", ".gitattributes": "*.md -text\n"})
    git(repo, "update-index", "--split-index")
    (repo / "d/p.md").write_text("two\n")
    ws = open_workspace(repo, "d/p.md")
    assert direct.commit(ws, "kept") is None
    assert not direct.restore(ws)
    assert (repo / "d/p.md").read_text() == "two\n"


@pytest.mark.parametrize("hidden", ["split", "v4"])
def test_an_attributes_file_only_in_a_split_or_v4_index_is_found(tmp_path, settled, hidden):
    """The index's bytes are scanned for an entry's `.gitattributes` (attributes._named_nowhere): not those of a
    split index, whose entries are in the shared index, nor of a version 4 one, whose paths are written as the
    part after the previous entry's (`d/.gitattr` before it: `ibutes` alone)."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n", "d/.gitattr": "x\n"})
    (repo / "d/.gitattributes").write_text("*.md ident\n")
    git(repo, "add", "d/.gitattributes")
    (repo / "d/.gitattributes").unlink()
    git(repo, *(["update-index", "--split-index"] if hidden == "split" else ["update-index", "--index-version", "4"]))
    assert b".gitattributes\0" not in (repo / ".git/index").read_bytes()
    (repo / "d/p.md").write_text("$Id: 0123 $\n")
    ws = open_workspace(repo, "d/p.md")
    assert direct.commit(ws, "kept") is None
    assert not direct.restore(ws)
    assert (repo / "d/p.md").read_text() == "$Id: 0123 $\n"


def test_an_index_without_an_attributes_entry_is_answered_from_its_bytes(tmp_path):
    """The index rewritten within the second (by every KEEP and DROP, so in every cycle): no `.gitattributes`
    in its bytes, the answer is no without libgit2's read of it."""
    repo = make_repo(tmp_path / "r", {"d/p.md": "one\n"})
    index = str(repo / ".git/index")
    assert attributes._named_nowhere(index)
    git(repo, "update-index", "--split-index")
    assert not attributes._named_nowhere(index)
