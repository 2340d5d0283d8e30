"""Files of the daemon's own written over in place (the digest, the guard's clock probe) against what an
unsandboxed mutator can put in their place: a link or a second name of a user's file is never written
through, a FIFO never blocks the daemon."""

from __future__ import annotations

import os

from autoresearch.plumbing import overwrite


def test_a_file_of_its_own_is_written_over_and_cut_to_the_new_length(tmp_path):
    path = tmp_path / "digest.md"
    path.write_bytes(b"a much longer text of the last write\n")
    inode = path.stat().st_ino
    assert overwrite.write(path, b"shorter\n")
    assert path.read_bytes() == b"shorter\n" and path.stat().st_ino == inode


def test_a_link_a_second_name_or_a_fifo_in_its_place_is_not_written(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious user data\n")
    linked, named, fifo = tmp_path / "linked", tmp_path / "named", tmp_path / "fifo"
    linked.symlink_to(victim)
    os.link(victim, named)
    os.mkfifo(fifo)
    for path in (linked, named, fifo, tmp_path / "missing", tmp_path):
        assert overwrite.owned(path) is None
        assert not overwrite.write(path, b"the daemon's text\n")
    assert victim.read_text() == "precious user data\n"
