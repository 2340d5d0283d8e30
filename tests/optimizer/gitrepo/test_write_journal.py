"""The note made before each git write of the daemon's: one file written over in place, blank once git has
exited by itself, and left as it is when an earlier write never finished (the next run's repair reads it)."""

from __future__ import annotations

import json

import pytest

from autoresearch.optimizer.gitrepo import gitcmd
from tests.helpers.repos import git, make_repo


def test_each_write_notes_itself_in_the_same_file_blanked_when_git_is_done(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    journal = tmp_path / "results" / "git-write.json"
    inodes = set()
    for text in ("two\n", "three is longer\n", "4\n"):
        (repo / "prompt.md").write_text(text)
        gitcmd.run(repo, ("commit", "-q", "-am", text.strip()), journal=journal)
        assert journal.read_bytes().strip() == b"" and not gitcmd.under_way(journal)
        inodes.add(journal.stat().st_ino)
    assert len(inodes) == 1  # written over, not made anew
    assert git(repo, "log", "--format=%s", "-1").strip() == "4"


def test_a_note_left_by_a_killed_write_stays_for_the_repair_whatever_comes_after(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    journal = tmp_path / "git-write.json"
    left = json.dumps({"git": ["commit", "-q"], "daemon": 1}).encode() + b"\n"
    journal.write_bytes(left)  # as a daemon killed during its git commit leaves it
    (repo / "prompt.md").write_text("two\n")
    gitcmd.run(repo, ("commit", "-q", "-am", "two"), journal=journal)
    assert journal.read_bytes() == left and gitcmd.under_way(journal)
    assert gitcmd.clear_stale_locks(repo, journal) == []  # no lock of its was left: nothing to remove
    assert not gitcmd.under_way(journal)


def test_a_note_written_over_a_longer_blank_reads_whole_while_git_writes(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    journal, seen = tmp_path / "git-write.json", tmp_path / "seen.json"
    journal.write_bytes(b" " * 300)  # blank: the last write finished; longer than any note
    (repo / "prompt.md").write_text("two\n")
    editor = f"cp '{journal}' '{seen}'; true"  # git's editor runs in the middle of the commit
    gitcmd.run(repo, ("commit", "-e", "-q", "-am", "two"), env={"GIT_EDITOR": editor}, journal=journal)
    assert json.loads(seen.read_bytes())["git"] == ["commit", "-e"] and len(seen.read_bytes()) == 300
    assert not gitcmd.under_way(journal) and len(journal.read_bytes()) == 300


def test_a_note_that_is_not_ours_still_lets_the_daemon_start_and_clears_the_locks(tmp_path):
    """An unsandboxed mutator wrote bytes over the journal, then the daemon was killed: every later start
    raised JSONDecodeError from the repair and the run could not resume until the file was removed by hand."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    for garbage in (b"garbage{{{", b"[1, 2]", b'{"git": 3}'):
        journal = tmp_path / "git-write.json"
        journal.write_bytes(garbage)
        (repo / ".git" / "index.lock").write_bytes(b"")  # made after the note, as a killed git leaves it
        assert gitcmd.clear_stale_locks(repo, journal) == ["removed .git/index.lock, left by `git` killed mid-write"]
        assert not (repo / ".git" / "index.lock").exists() and not gitcmd.under_way(journal)


@pytest.mark.parametrize(
    "trailer, done",
    [(bytes(20), "finished .git/index"), (b"\x01" * 20, "removed .git/index.lock")],
    ids=["skip-hash", "torn"],
)
def test_a_commits_index_lock_with_git_s_skip_hash_trailer_is_finished_as_git_would_read_it(tmp_path, trailer, done):
    """git >= 2.40 with `index.skipHash=true` writes an all-zero trailer, which its verify_hdr reads unchecked:
    such a lock, left by a commit killed once HEAD moved, is the index to finish with (the repair removed it,
    and the resume stopped); any other trailer but the checksum is a torn index, removed."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    journal = tmp_path / "git-write.json"
    parent = git(repo, "rev-parse", "HEAD").strip()
    journal.write_bytes(json.dumps({"git": ["commit", "--only"], "daemon": 1, "parent": parent}).encode() + b"\n")
    (repo / "prompt.md").write_text("two\n")
    git(repo, "commit", "-q", "-am", "two")  # HEAD moved to the parent's child, as the killed commit left it
    written = (repo / ".git/index").read_bytes()[:-20] + trailer
    (repo / ".git/index.lock").write_bytes(written)
    assert gitcmd.clear_stale_locks(repo, journal) == [f"{done}, left by `git commit --only` killed mid-write"]
    assert not (repo / ".git/index.lock").exists()
    assert ((repo / ".git/index").read_bytes() == written) == (trailer == bytes(20))


@pytest.mark.parametrize(
    "version, cut, done",
    [(4, 0, "finished .git/index"), (2, 0, "finished .git/index"), (4, 40, "removed .git/index.lock")]
    + [(2, 40, "removed .git/index.lock"), (2, 90, "removed .git/index.lock")],
    ids=["v4", "v2", "v4-cut", "v2-cut", "v2-header-cut"],
)
def test_a_skip_hash_lock_is_finished_only_when_its_entries_fill_it(tmp_path, version, cut, done):
    """An all-zero trailer vouches for nothing: a lock cut short whose last 20 bytes read zero (a torn write's
    tail) was finished as the index, which git reads past its entries' end. The entries and extensions must
    end exactly at the trailer, in version 4's prefix-compressed names as in version 2's padded ones."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "a/b.txt": "b\n", "a/c.txt": "c\n"})
    git(repo, "update-index", "--index-version", str(version))
    journal = tmp_path / "git-write.json"
    parent = git(repo, "rev-parse", "HEAD").strip()
    journal.write_bytes(json.dumps({"git": ["commit", "--only"], "daemon": 1, "parent": parent}).encode() + b"\n")
    (repo / "prompt.md").write_text("two\n")
    git(repo, "commit", "-q", "-am", "two")
    index = (repo / ".git/index").read_bytes()
    assert int.from_bytes(index[4:8], "big") == version
    written = index[: len(index) - 20 - cut] + bytes(20)
    (repo / ".git/index.lock").write_bytes(written)
    assert gitcmd.clear_stale_locks(repo, journal) == [f"{done}, left by `git commit --only` killed mid-write"]
    assert ((repo / ".git/index").read_bytes() == written) == (cut == 0)
