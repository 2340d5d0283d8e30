"""A file the scope guard settles is read once: the bytes it hashed are the ones it keeps to put back."""

from __future__ import annotations

import builtins
import io
import os

import pytest

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import scope
from autoresearch.optimizer.guard.backups import MEMORY, Backups
from autoresearch.optimizer.guard.manifest import Handed, blob_oid, bytes_oid, entry_of
from tests.helpers.repos import make_repo


def test_a_file_changed_between_mutations_is_read_once_to_settle_and_put_back_as_settled(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "notes.txt": "v1\n"})
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", None, tmp_path / "guard")
    guard.open()
    notes = str(repo / "notes.txt")
    (repo / "notes.txt").write_text("v2, the user's edit between two mutations\n")
    opened: list[str] = []

    def counting(real):
        def counted(file, *args, **kwargs):
            if not isinstance(file, int) and os.fspath(file) == notes:  # by path: a descriptor's fdopen is not an open
                opened.append(notes)
            return real(file, *args, **kwargs)

        return counted

    monkeypatch.setattr(builtins, "open", counting(io.open))
    monkeypatch.setattr(io, "open", counting(io.open))
    monkeypatch.setattr(os, "open", counting(os.open))
    guard.settle()
    monkeypatch.undo()
    assert len(opened) == 1  # hashed and kept from one read, where the backups read it again
    (repo / "notes.txt").write_text("v3, the mutator's\n")
    assert guard.undo(guard.changes()) == []
    assert (repo / "notes.txt").read_text() == "v2, the user's edit between two mutations\n"
    guard.close()


def test_bytes_are_handed_only_for_the_id_they_were_read_as(tmp_path):
    """A later look may keep a path's older entry (its signature as it was): the bytes read before are then
    not that entry's, and the backups read the file themselves."""
    path = tmp_path / "f"
    path.write_bytes(b"read\n")
    handed = Handed(1 << 20, 1 << 20)
    oid = handed.oid(str(path), 5)
    assert oid == bytes_oid(b"read\n")
    assert handed.take(str(path), bytes_oid(b"other\n")) is None
    assert handed.take(str(path), oid) is None  # given up by the first take
    handed.oid(str(path), 5)
    assert handed.take(str(path), oid) == b"read\n" and handed.size == 0


def test_a_file_larger_than_handed_allows_is_hashed_in_chunks_and_not_kept(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    handed = Handed(1 << 20, 99)
    assert handed.oid(str(path), 100) == bytes_oid(b"x" * 100)
    assert handed.held == {} and handed.size == 0


def test_a_file_grown_since_its_stat_is_hashed_in_chunks_never_read_whole(tmp_path):
    """A process that made the file huge between the look's stat and its read (a sparse file is made in no
    time) would have the daemon hold all of it: it is hashed a chunk at a time, as it was, and not kept."""
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    handed = Handed(1 << 20, 1 << 20)
    assert handed.oid(str(path), 5) == bytes_oid(b"x" * 100)  # what blob_oid says of a file read to 100 bytes
    assert handed.held == {} and handed.size == 0


@pytest.mark.parametrize("handed", [False, True], ids=["chunks", "handed"])
@pytest.mark.parametrize("kind", ["fifo", "link to a device"])
def test_a_file_swapped_for_a_fifo_or_a_link_after_its_stat_is_never_waited_on_nor_followed(tmp_path, kind, handed):
    """Between a walk's lstat and the read that hashes the file, a process the mutator left can put a FIFO in
    its place (the open waited for a writer forever) or a link to /dev/zero (read without end): the file
    reads as unreadable, and its next event shows what is there."""
    path = tmp_path / "f"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        os.symlink("/dev/zero", path)
    with pytest.raises(OSError):
        Handed(1 << 20, 1 << 20).oid(str(path), 5) if handed else blob_oid(str(path), 5)


def test_the_backups_never_wait_on_a_fifo_put_where_a_settled_file_was(tmp_path):
    """The backups read a file the look hashed but did not keep (too large to hand, memory full): a FIFO put in
    its place meanwhile is not waited on, and nothing is kept of it."""
    path = tmp_path / "f"
    path.write_bytes(b"mine\n")
    entry = entry_of(str(path), os.lstat(path), None, True)
    path.unlink()
    os.mkfifo(path)
    backups = Backups(tmp_path / "guard", None, set())
    backups.hold(str(path), entry)
    assert backups.memory == {} and not (tmp_path / "guard" / "objects").exists()


def test_bytes_handed_when_the_memory_is_full_are_the_copy_on_disk(tmp_path):
    """Past the memory's budget a kept content goes to a copy on disk: the bytes the look hashed, not the file
    read again, which a process left running may have rewritten since (a copy that is not its id's bytes
    cannot put the file back)."""
    path = tmp_path / "f"
    path.write_bytes(b"as settled\n")
    handed = Handed(1 << 20, 1 << 20)
    entry = entry_of(str(path), os.lstat(path), None, True, handed)
    path.write_bytes(b"rewritten since\n")
    backups = Backups(tmp_path / "guard", None, set())
    backups.memory_bytes = MEMORY
    backups.hold(str(path), entry, None, handed.take(str(path), entry.oid))
    assert (tmp_path / "guard" / "objects" / entry.oid[:2] / entry.oid[2:]).read_bytes() == b"as settled\n"
