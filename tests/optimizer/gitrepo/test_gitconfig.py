"""The configuration's and attributes files' answers the loop asks each cycle (autoresearch.optimizer.gitrepo.
gitconfig) are kept while their files are unchanged, and found again as soon as one changes."""

from __future__ import annotations

import itertools
import os
import threading
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from autoresearch.optimizer.gitrepo import gitconfig
from tests.helpers.repos import git, make_repo


@pytest.fixture
def settled(monkeypatch):
    """Files written by the test count as settled at once (they are seconds old in a real run)."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)


def _settings(repo):
    return gitconfig.settings(pygit2.Repository(str(repo)), repo / ".git")


def test_the_answers_are_kept_until_the_configuration_changes(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    first = _settings(repo)
    assert not first.converts
    assert _settings(repo) is first  # nothing read again
    git(repo, "config", "filter.lfs.smudge", "git-lfs smudge -- %f")
    assert _settings(repo).converts
    git(repo, "config", "--unset", "filter.lfs.smudge")
    git(repo, "config", "core.excludesFile", str(tmp_path / "ignored"))
    assert _settings(repo) == gitconfig.Settings(False, (tmp_path / "ignored",))


def test_an_attributes_file_written_after_is_read(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    git(repo, "config", "core.attributesFile", str(tmp_path / "attributes"))
    assert not _settings(repo).converts
    (tmp_path / "attributes").write_text("*.md filter=lfs\n")
    assert _settings(repo).converts
    (tmp_path / "attributes").unlink()
    assert not _settings(repo).converts
    (repo / ".git" / "info" / "attributes").write_text("*.md working-tree-encoding=UTF-16\n")
    assert _settings(repo).converts


def test_an_included_file_is_read_every_time(tmp_path, settled):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    (tmp_path / "included").write_text("[core]\n\tbare = false\n")
    git(repo, "config", "include.path", str(tmp_path / "included"))
    assert not _settings(repo).converts
    with open(tmp_path / "included", "a") as included:
        included.write('[filter "lfs"]\n\tprocess = git-lfs filter-process\n')
    assert _settings(repo).converts


def test_a_file_changed_within_the_last_second_is_read_again(tmp_path):
    """Its times may not move at a write in the same clock tick: its answers are not kept."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    first = _settings(repo)
    assert _settings(repo) is not first
    assert _settings(repo) == first


def test_names_that_are_not_utf8_are_read_as_git_takes_them(tmp_path, settled):
    """A section's name in Latin-1, in the user's file and the repository's: pygit2's iterator raised on it
    (and the loop with it, at its first DROP); git takes the name as it is, and so does a filter driver's."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".gitconfig").write_bytes(b'[branch "caf\xe9"]\n\tremote = origin\n')
    was = pygit2.settings.search_path[ConfigLevel.GLOBAL]
    pygit2.settings.search_path[ConfigLevel.GLOBAL] = str(tmp_path / "home")  # where libgit2 reads ~/.gitconfig
    try:
        assert _settings(repo) == gitconfig.Settings(False, ())
        with open(repo / ".git" / "config", "ab") as config:
            config.write(b'[filter "d\xe9j\xe0"]\n\tsmudge = cat\n[core]\n\texcludesFile = /x\n')
        assert _settings(repo) == gitconfig.Settings(True, (Path("/x"),))
    finally:
        pygit2.settings.search_path[ConfigLevel.GLOBAL] = was


def test_a_configuration_replaced_while_read_is_read_again(tmp_path):
    """`git config` renames its new file in: libgit2, which takes a file's size from stat(2) and then opens it
    by name, failed the read of one replaced between the two ("could not read (expected 1121 bytes, read 21)"),
    and the KEEP or the put-back that asked, or read the new file cut short: without its last entries, or
    ending mid-line ("missing ']' in section header"), a few reads in a thousand here. Each read finds one
    configuration whole: its last entry there."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    config = repo / ".git" / "config"
    base = config.read_text()
    lib, done, writing = pygit2.Repository(str(repo)), threading.Event(), threading.Lock()
    allowed = [0]  # replacements the writer may still make in the read under way

    def rewrite(n: int) -> None:  # each of another size than the one before: a stat tells them apart
        (tmp_path / "config.new").write_text(
            base + "[x]\n\ty = 1\n" * (n % 99 + 1) + f"[core]\n\texcludesFile = /{n}\n"
        )
        os.replace(tmp_path / "config.new", config)

    def rewriting() -> None:
        """Replacements one after another, as fast as they come, but no more in one read than it may meet
        (`_READS` - 1): each lands in one of its tries at most, so its last try finds the file as left. A
        writer that never stops would outlast any bounded read, and failed it now and then."""
        for n in itertools.count(1):
            if done.is_set():
                return
            with writing:
                if allowed[0] > 0:
                    allowed[0] -= 1
                    rewrite(n)

    def read() -> tuple[Path, ...]:
        with writing:  # no replacement left over from the read before
            allowed[0] = gitconfig._READS - 1
        files = gitconfig.settings(lib, repo / ".git").excludes_files
        with writing:
            allowed[0] = 0
        return files

    rewrite(0)
    writer = threading.Thread(target=rewriting)
    writer.start()
    try:
        found = [read() for _ in range(6000)]
    finally:
        done.set()
        writer.join()
    assert [files for files in found if len(files) != 1] == []
