"""atomic.fresh: the temporary files the daemon writes records and backups through are made anew, and a
symbolic link an unsandboxed mutator (or a process it left) put at such a name leads no write elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

import pygit2

from autoresearch.optimizer.guard.backups import Backups
from autoresearch.optimizer.guard.manifest import entry_of
from autoresearch.plumbing import atomic


def victim_and_link(tmp_path: Path, name: str) -> tuple[Path, Path]:
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    link = tmp_path / name
    link.symlink_to(victim)
    return victim, link


def test_a_link_at_the_name_is_replaced_by_a_new_file_and_the_file_it_named_is_untouched(tmp_path):
    victim, link = victim_and_link(tmp_path, "record.tmp")

    with atomic.fresh(link) as out:
        out.write(b"the daemon's bytes\n")

    assert victim.read_text() == "the user's own file\n"
    assert not link.is_symlink() and link.read_bytes() == b"the daemon's bytes\n"


def test_a_leftover_file_at_the_name_is_made_anew_empty(tmp_path):
    left = tmp_path / "record.tmp"
    left.write_bytes(b"a killed write's half\n")

    with atomic.fresh(left) as out:
        out.write(b"whole\n")

    assert left.read_bytes() == b"whole\n"


def test_the_guards_backup_is_put_back_through_no_link_at_its_temporary_name(tmp_path):
    repo = pygit2.init_repository(str(tmp_path / "repo"))
    guarded = tmp_path / "repo" / "notes.txt"
    guarded.write_text("what the user wrote\n")
    entry = entry_of(str(guarded), os.lstat(guarded), None, True)
    backups = Backups(tmp_path / "guard", repo.odb, set())
    backups.hold(str(guarded), entry)
    victim, link = victim_and_link(tmp_path, ".autoresearch-restore.1")

    assert backups.write_to(entry.oid, str(link))

    assert victim.read_text() == "the user's own file\n"  # was written over with the backup's bytes
    assert link.read_text() == "what the user wrote\n" and not link.is_symlink()
