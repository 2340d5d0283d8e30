"""The scope guard's journal: each arm appends what changed since the last, and a start after a kill reads
back the manifest as it was armed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import journal, scope
from autoresearch.plumbing.errors import IntegrityError
from tests.helpers.guardcycles import armed_cycles, start_after_a_kill
from tests.helpers.repos import make_repo


def night(tmp_path: Path, cycles: int) -> tuple[Path, scope.Guard, list[tuple[int, int]]]:
    """A guard through `cycles` cycles of the eval storing a cache entry and the user adding a note, each
    settled and armed; the journal's (inode, size) after each arm."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    cache = repo / ".autoresearch" / "cache"
    (cache / "eval-key").mkdir(parents=True)
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", cache, tmp_path / "guard")
    guard.open()

    def change(n: int) -> None:
        (cache / "eval-key" / f"{n:040x}-sample-1.jsonl").write_bytes(b"%d" % n * 100)
        (repo / f"note-{n}.txt").write_text(f"note {n}\n")

    after = armed_cycles(guard, tmp_path, cycles, change, tmp_path / "guard" / journal.NAME)
    return repo, guard, after


def test_an_arm_appends_only_what_changed_and_the_file_stays_within_twice_the_whole(tmp_path):
    _, guard, after = night(tmp_path, 60)
    appended = [b[1] - a[1] for a, b in zip(after, after[1:], strict=False) if a[0] == b[0]]
    whole = [b[1] for a, b in zip(after, after[1:], strict=False) if a[0] != b[0]]
    assert len(appended) > 45 and max(appended) < 1200  # two entries, a disarm and an arm
    assert whole and after[-1][1] <= 2 * max(whole)  # written whole again as the appends outgrow it
    record = journal.read(tmp_path / "guard")
    assert record is not None and record.run_dir == tmp_path / "run-59"
    assert {p: (e, e.sig, e.size) for p, e in record.books.manifest.items()} == {
        p: (e, e.sig, e.size) for p, e in guard.manifest.items()
    }
    assert (record.books.counts, record.books.mark) == (guard.cache.counts, guard.cache.mark)
    assert list(record.books.counts.values()) == [60]  # the cache's entries, by count alone
    guard.close()


def test_a_start_after_a_kill_undoes_the_mutation_against_entries_only_appended(tmp_path):
    repo, guard, _ = night(tmp_path, 5)
    guard.close()  # the daemon is killed during the fifth mutation, which does this:
    (repo / "note-4.txt").unlink()  # journaled in the last arm's append only
    (repo / "note-1.txt").write_text("forged\n")
    (repo / ".git/hooks/post-commit").write_text("#!/bin/sh\necho pwned\n")
    assert journal.armed(tmp_path / "guard")
    changed, run_dir = start_after_a_kill(repo, tmp_path / "guard")
    assert run_dir == tmp_path / "run-4"
    assert changed == [
        ".git/hooks/post-commit",
        "note-1.txt",
        "note-4.txt",
    ]
    assert (repo / "note-4.txt").read_text() == "note 4\n" and (repo / "note-1.txt").read_text() == "note 1\n"
    assert not (repo / ".git/hooks/post-commit").exists()
    assert not journal.armed(tmp_path / "guard") and journal.read(tmp_path / "guard") is None


def test_a_torn_arm_is_no_mutation_and_a_damaged_line_stops_the_start(tmp_path):
    _, guard, _ = night(tmp_path, 3)
    guard.close()
    path = tmp_path / "guard" / journal.NAME
    data = path.read_bytes()
    path.write_bytes(data[:-5])  # the kill cut the append of the arm short: the mutator never started
    assert not journal.armed(tmp_path / "guard") and journal.read(tmp_path / "guard") is None
    lines = data.split(b"\n")
    lines[2] = lines[2][:-3]  # an appended entry, damaged by someone
    path.write_bytes(b"\n".join(lines))
    assert journal.armed(tmp_path / "guard")
    with pytest.raises(IntegrityError, match="damaged"):
        journal.read(tmp_path / "guard")


def test_a_journal_changed_behind_the_guard_is_written_whole_again(tmp_path):
    _, guard, after = night(tmp_path, 3)
    path = tmp_path / "guard" / journal.NAME
    guard.disarm()
    with open(path, "ab") as f:
        f.write(b'{"arm": "/elsewhere"')  # a torn line, the next append would end it
    guard.settle()
    guard.arm(tmp_path / "run-3")
    assert os.stat(path).st_ino != after[-1][0]
    record = journal.read(tmp_path / "guard")
    assert record is not None and record.run_dir == tmp_path / "run-3"
    guard.close()
