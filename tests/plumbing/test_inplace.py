"""Files of the daemon's own written over in place (autoresearch.plumbing.inplace): the digest and the guard's
clock probe (`cut`), the git write journal and a KEEP's pending line (`write`, `blank`), against what an
unsandboxed mutator can put in their place: a link or a second name of a user's file is never written
through, a FIFO never blocks the daemon, a sparse file of a terabyte is not blanked in memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autoresearch.optimizer.cycle import pending
from autoresearch.plumbing import inplace
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.paths import ExperimentPaths
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

USERS = "precious user data\n"


def test_a_file_of_its_own_is_written_over_and_cut_to_the_new_length(tmp_path):
    path = tmp_path / "digest.md"
    path.write_bytes(b"a much longer text of the last write\n")
    inode = path.stat().st_ino
    assert inplace.cut(path, b"shorter\n")
    assert path.read_bytes() == b"shorter\n" and path.stat().st_ino == inode


def test_a_record_of_its_own_is_written_over_and_blanked_after(tmp_path):
    path = tmp_path / "git-write.json"
    inplace.write(path, b'{"git": ["commit", "--message", "a long one"]}\n')
    inode = path.stat().st_ino
    inplace.write(path, b'{"git": ["reset"]}\n')
    assert inplace.read(path) == b'{"git": ["reset"]}' and path.stat().st_ino == inode
    inplace.blank(path)
    assert inplace.read(path) == b"" and path.stat().st_ino == inode


def _not_the_daemons(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    """A user's file, and a link to it, a second name of it and a FIFO, each where a record could be."""
    victim = tmp_path / "victim.txt"
    victim.write_text(USERS)
    places = {name: tmp_path / name for name in ("linked", "named", "fifo")}
    places["linked"].symlink_to(victim)
    os.link(victim, places["named"])
    os.mkfifo(places["fifo"])
    return victim, places


def test_a_link_a_second_name_or_a_fifo_in_its_place_is_not_cut(tmp_path):
    victim, places = _not_the_daemons(tmp_path)
    for path in (*places.values(), tmp_path / "missing", tmp_path):
        assert inplace.owned(path) is None
        assert not inplace.cut(path, b"the daemon's text\n")
    assert victim.read_text() == USERS


@pytest.mark.parametrize("place", ["linked", "named", "fifo"])
def test_a_record_in_place_of_a_link_a_second_name_or_a_fifo_is_a_file_of_its_own(tmp_path, place):
    victim, places = _not_the_daemons(tmp_path)
    path = places[place]
    assert inplace.read(path) == b""  # not the daemon's record (and a FIFO's open never blocks)
    inplace.blank(path)  # never blanked through: the name goes
    assert not os.path.lexists(path)
    os.symlink(victim, path) if place == "linked" else os.link(victim, path) if place == "named" else os.mkfifo(path)

    inplace.write(path, b'{"git": ["commit"]}\n')

    assert inplace.owned(path) is not None and inplace.read(path) == b'{"git": ["commit"]}'
    assert victim.read_text() == USERS


def test_a_link_in_the_records_place_leaves_its_target_as_it_was(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text(USERS)
    paths = ExperimentPaths(tmp_path / "exp")
    paths.meta.mkdir(parents=True)
    pending.path(paths).symlink_to(victim)
    assert inplace.read(pending.path(paths)) == b""  # not the daemon's record
    pending.clear(paths)  # a line appended: the stale record blanked
    assert not pending.path(paths).is_symlink()
    journal = paths.git_journal
    journal.symlink_to(victim)
    inplace.write(journal, b'{"git": ["commit"]}\n')
    assert not journal.is_symlink() and inplace.read(journal) == b'{"git": ["commit"]}'
    assert victim.read_text() == USERS


def test_a_huge_sparse_file_in_the_records_place_is_cut_not_blanked_in_memory(tmp_path):
    record = tmp_path / "git-write.json"
    with open(record, "wb") as f:
        os.truncate(f.fileno(), 1 << 40)
    inplace.write(record, b'{"git": ["commit"]}\n')
    assert record.stat().st_size == len(b'{"git": ["commit"]}\n')
    assert inplace.read(record) == b'{"git": ["commit"]}'
    with open(record, "wb") as f:
        os.truncate(f.fileno(), 1 << 40)
    inplace.blank(record)
    assert record.stat().st_size == 0


def test_a_folder_in_the_records_place_is_named_and_kept_not_a_traceback(tmp_path):
    """A folder at a record's name (a KEEP's pending line, the git write journal) is someone's: never removed,
    and the write that meets it says which, as an IntegrityError (exit 50), not an OSError's traceback."""
    record = tmp_path / "pending-keep.json"
    record.mkdir()
    (record / "mine").write_text(USERS)

    with pytest.raises(IntegrityError, match="pending-keep.json: a folder where autoresearch keeps a record"):
        inplace.write(record, b'{"line": 1}')

    assert (record / "mine").read_text() == USERS
    inplace.blank(record)  # blanking or reading it leaves it be
    assert inplace.read(record) == b"" and (record / "mine").read_text() == USERS


def test_a_run_whose_keep_meets_a_folder_at_its_pending_line_stops_with_its_name_and_nothing_changed(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        {2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"}},
        config={"stop": {"max_cycles": 2}},
    )
    assert cli(repo, "run", "--max-cycles", "1").returncode == 10  # the original alone: no improvement
    record = repo / ".autoresearch/runs/exp/_autoresearch/pending-keep.json"
    record.unlink(missing_ok=True)
    record.mkdir()
    (record / "mine").write_text(USERS)
    head = git(repo, "rev-parse", "HEAD")

    stopped = cli(repo, "run")

    assert stopped.returncode == 50, stopped.stderr
    assert f"{record}: a folder where autoresearch keeps a record of its own" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert (record / "mine").read_text() == USERS
    assert git(repo, "rev-parse", "HEAD") == head and git(repo, "status", "--porcelain").strip() == ""
    assert [r["cycle"] for r in iterations(repo)] == [1]


def test_a_file_another_thread_gave_its_bits_back_is_opened_as_it_is(tmp_path):
    """Parallel candidates store at once after a `chmod 444`: each one's open fails, the first repairs the log, and
    the second then finds both bits there. It opened nothing, and its store ended the run (exit 50)."""
    log = tmp_path / "entries.log"
    log.write_bytes(b"\nfirst\n")
    log.chmod(0o644)  # as the first thread's repair left it
    fd = inplace.usable_again(log, os.O_WRONLY | os.O_APPEND)
    assert fd is not None
    os.write(fd, b"\nsecond\n")
    os.close(fd)
    assert log.read_bytes() == b"\nfirst\n\nsecond\n" and log.stat().st_mode & 0o777 == 0o644


def test_contents_are_a_regular_file_s_whole_bytes_and_nothing_else_is_read(tmp_path):
    """What the eval's undo, a KEEP's late-write check and the carry compare: the bytes of a regular file
    (larger than a read's first guess, and empty), never a link's target, a FIFO's (no open blocks), a
    folder's, or a file over the bound."""
    big, empty = tmp_path / "big", tmp_path / "empty"
    big.write_bytes(bytes(range(256)) * 300)
    empty.write_bytes(b"")
    read = inplace.contents(big, 1 << 20)
    assert read is not None and read[0] == big.read_bytes() and read[1].st_ino == big.stat().st_ino
    assert inplace.contents(empty, 10) is not None and inplace.contents(empty, 10)[0] == b""
    assert inplace.contents(big, 1000) is None
    (tmp_path / "link").symlink_to(big)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    assert [inplace.contents(tmp_path / name, 1 << 20) for name in ("link", "fifo", "folder", "missing")] == [None] * 4


def test_contents_stop_past_the_bound_whatever_the_stat_said():
    """A file grown since its stat (a process the mutator left appends, or makes it a sparse GiB) is read no
    further than the bound: what the stat said is not what the read finds. A file of /proc says 0 bytes and
    holds more."""
    assert inplace.contents("/proc/self/maps", 10) is None
    read = inplace.contents("/proc/self/maps", 1 << 20)
    assert read is not None and len(read[0]) > 10 and read[1].st_size == 0
