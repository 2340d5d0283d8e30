"""The records and backups the daemon writes are written through temporary files made anew (atomic.write_chunks:
an unforeseeable name, O_EXCL), and a symbolic link an unsandboxed mutator (or a process it left) put at a name
beside them leads no write elsewhere: neither at the fixed names an older version wrote through (`<name>.tmp`,
`<name>.autoresearch-restore`, `<oid>.<pid>.tmp`) nor at the name the temporary file would have had (which
the tests make foreseeable: tempfile's first candidate)."""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pygit2
import pytest

from autoresearch.optimizer.guard import trusted
from autoresearch.optimizer.guard.backups import Backups
from autoresearch.optimizer.guard.ledger import Ledger, repair
from autoresearch.optimizer.guard.manifest import entry_of
from autoresearch.plumbing import atomic
from autoresearch.runs.cache import SampleCache
from autoresearch.runs.samples import write_index

USERS = "the user's own file\n"
FORESEEN = "foreseen"  # the first name tempfile tries (see `foreseen`)


@pytest.fixture
def foreseen(monkeypatch) -> None:
    """tempfile's candidate names made to begin with FORESEEN, then random ones, as a mutator that guessed the
    next name would see them."""

    def names() -> Iterator[str]:
        yield FORESEEN
        rng = random.Random()
        while True:
            yield "".join(rng.choices("abcdefghijklmnopqrstuvwxyz0123456789_", k=8))

    monkeypatch.setattr(tempfile, "_get_candidate_names", names)


def plant(victim_folder: Path, beside: Path, *names: str) -> Callable[[], None]:
    """Links to a user's file at each of `names` in `beside`'s folder, and at the temporary's foreseen name;
    the returned check: the user's file untouched and every link still a link."""
    victim_folder.mkdir(parents=True, exist_ok=True)
    victim = victim_folder / "victim.txt"
    victim.write_text(USERS)
    links = [beside.parent / name for name in (*names, f".{beside.name}.{FORESEEN}.tmp")]
    beside.parent.mkdir(parents=True, exist_ok=True)
    for link in links:
        link.symlink_to(victim)

    def check() -> None:
        assert victim.read_text() == USERS
        assert all(link.is_symlink() for link in links)

    return check


def test_a_write_leads_through_no_link_at_the_temporarys_name(tmp_path, foreseen):
    record = tmp_path / "record.json"
    untouched = plant(tmp_path, record, "record.json.tmp")

    atomic.write_bytes(record, b"the daemon's bytes\n")

    untouched()
    assert not record.is_symlink() and record.read_bytes() == b"the daemon's bytes\n"


def test_a_long_name_still_gets_a_temporary_file(tmp_path):
    record = tmp_path / ("r" * 250)

    atomic.write_bytes(record, b"whole\n")

    assert record.read_bytes() == b"whole\n" and os.listdir(tmp_path) == [record.name]


def _history(tmp_path: Path, lines: int = 3) -> tuple[Path, Path]:
    file, copy = tmp_path / "results" / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    file.parent.mkdir()
    file.write_bytes(b"".join(b'{"cycle": %d}\n' % n for n in range(1, lines + 1)))
    return file, copy


def test_a_start_makes_the_copy_again_through_no_link(tmp_path, foreseen):
    file, copy = _history(tmp_path)
    untouched = plant(tmp_path, copy, "iterations.jsonl.tmp")

    ledger = Ledger.open(file, copy)

    untouched()
    assert copy.read_bytes() == file.read_bytes() and ledger.size == len(file.read_bytes())


def test_a_start_puts_the_history_back_through_no_link(tmp_path, foreseen):
    file, copy = _history(tmp_path)
    copy.parent.mkdir()
    copy.write_bytes(file.read_bytes())
    file.write_bytes(b'{"cycle": 1}\n{"cycle": "a mutators"}\n')
    untouched = plant(tmp_path, file, "iterations.jsonl.autoresearch-restore")

    assert repair(file, copy, foreign_tail=True) is not None

    untouched()
    assert file.read_bytes() == copy.read_bytes()


@pytest.mark.parametrize("size", [100, 3 * trusted.SMALL])  # held in memory, and copied
def test_the_records_are_put_back_after_a_mutation_through_no_link(tmp_path, foreseen, size):
    record = tmp_path / "results" / "holdout.json"
    record.parent.mkdir()
    record.write_bytes(b"x" * size)
    snapshot = trusted.take(trusted.Watched((record,), ()))
    record.write_bytes(b"a mutator's")
    untouched = plant(tmp_path, record, "holdout.json.autoresearch-restore")

    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == [record]

    untouched()
    assert record.read_bytes() == b"x" * size


def test_the_history_and_its_copy_are_put_back_after_a_mutation_through_no_link(tmp_path, foreseen):
    file, copy = _history(tmp_path)
    ledger = Ledger.open(file, copy)
    whole = file.read_bytes()
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    file.write_bytes(b"")
    untouched = plant(tmp_path, file, "iterations.jsonl.autoresearch-restore")

    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == [file]
    untouched()
    assert file.read_bytes() == whole

    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    copy.write_bytes(b"")
    untouched = plant(tmp_path / "aside", copy, "iterations.jsonl.tmp")  # the temporary's name: free again
    assert trusted.restore(snapshot, tmp_path / "aside2", tmp_path / "results") == []
    untouched()
    assert copy.read_bytes() == whole


def _guarded(tmp_path: Path, size: int) -> tuple[Backups, str, Path]:
    repo = pygit2.init_repository(str(tmp_path / "repo"))
    guarded = tmp_path / "repo" / "notes.txt"
    guarded.write_bytes(b"what the user wrote\n" * (size // 20))
    entry = entry_of(str(guarded), os.lstat(guarded), None, True)
    return Backups(tmp_path / "guard", repo.odb, set()), entry.oid, guarded


def test_the_guards_backup_on_disk_is_written_through_no_link(tmp_path, foreseen):
    backups, oid, guarded = _guarded(tmp_path, 9 << 20)  # over the size held in memory: a copy on disk
    target = tmp_path / "guard" / "objects" / oid[:2] / oid[2:]
    untouched = plant(tmp_path, target, f"{oid[2:]}.{os.getpid()}.tmp")

    backups.hold(str(guarded), entry_of(str(guarded), os.lstat(guarded), None, True))

    untouched()
    assert target.read_bytes() == guarded.read_bytes() and backups.read(oid) == guarded.read_bytes()


def test_the_guards_backup_is_put_back_through_no_link_at_its_temporary_name(tmp_path):
    backups, oid, guarded = _guarded(tmp_path, 20)
    backups.hold(str(guarded), entry_of(str(guarded), os.lstat(guarded), None, True))
    victim = tmp_path / "victim.txt"
    victim.write_text(USERS)
    link = tmp_path / ".autoresearch-restore.1"
    link.symlink_to(victim)

    assert backups.write_to(oid, str(link))

    assert victim.read_text() == USERS  # was written over with the backup's bytes
    assert link.read_bytes() == guarded.read_bytes() and not link.is_symlink()


def test_the_evals_records_are_written_through_no_link(tmp_path, foreseen):
    run_dir, cache = tmp_path / "run", tmp_path / "cache"
    row = {"test_id": "a", "score": 1.0}
    samples = SampleCache(cache, "eval")
    sample = cache / "eval" / "abc-sample-1.jsonl"
    samples.put("abc", 1, [row])  # made in place: a second put replaces it
    untouched = [
        plant(tmp_path / "v1", run_dir / "index.jsonl", "index.jsonl.tmp"),
        plant(tmp_path / "v2", cache / "key", f"key.{os.getpid()}.tmp"),
        plant(tmp_path / "v3", sample, f"{sample.name}.{os.getpid()}.{threading.get_ident()}.tmp"),
    ]
    (cache / "key").unlink()  # a cache made again: a new key

    write_index(run_dir, [row])
    SampleCache(cache, "eval").put("abc", 1, [row])

    for check in untouched:
        check()
    assert (run_dir / "index.jsonl").read_text() == json.dumps(row) + "\n"
    assert len((cache / "key").read_bytes()) == 32 and not (cache / "key").is_symlink()
    assert SampleCache(cache, "eval").get("abc", 1) is not None and not sample.is_symlink()
