"""iterations.jsonl's lines as the daemon appended them: checked around each mutation without a copy a cycle,
put back from the daemon's own copy, and by the next start after a kill at any step of an append."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from autoresearch.optimizer.guard import trusted
from autoresearch.optimizer.guard.ledger import Ledger, append_beside, repair
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.trajectory.iterations import Iteration, encoded
from tests.optimizer.guard.test_trusted import TAMPER


def _record(cycle: int) -> Iteration:
    """Stamped: a line left to `encoded` to stamp differs from the one appended when a second passes between."""
    run_dir, stamp = f"2026-11-29T04-00-00-c{cycle:04d}", "2026-11-29T04:00:00Z"
    return Iteration(cycle=cycle, score=0.5, decision="drop", run_dir=run_dir, timestamp=stamp)


def _night(tmp_path: Path, cycles: int) -> Ledger:
    meta, vault = tmp_path / "results" / "_autoresearch", tmp_path / "vault"
    meta.mkdir(parents=True)
    (meta / "holdout.json").write_bytes(b'{"tests": ["a", "b"]}\n')
    ledger = Ledger.open(meta / "iterations.jsonl", vault / "iterations.jsonl")
    for n in range(1, cycles + 1):
        ledger.append(_record(n))
    return ledger


@pytest.mark.parametrize("cycles", [3, 300])
@pytest.mark.parametrize("how", list(TAMPER))
def test_a_history_a_mutation_changed_comes_back_from_the_daemons_copy(tmp_path, cycles, how):
    ledger = _night(tmp_path, cycles)
    before = ledger.file.read_bytes()
    assert ledger.copy.read_bytes() == before
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    TAMPER[how](ledger.file)
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == [ledger.file]
    assert ledger.file.read_bytes() == before and not ledger.file.is_symlink()
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))  # the next cycle: found whole
    assert trusted.restore(snapshot, tmp_path / "aside2", tmp_path / "results") == []


def test_a_history_only_touched_or_written_again_alike_is_unchanged(tmp_path):
    ledger = _night(tmp_path, 5)
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    ledger.file.write_bytes(ledger.file.read_bytes())
    os.utime(ledger.file, (0, 0))
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == []


def test_a_copy_changed_during_the_mutation_is_made_again_from_the_history(tmp_path):
    ledger = _night(tmp_path, 5)
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    ledger.copy.write_bytes(b"")
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == []
    assert ledger.copy.read_bytes() == ledger.file.read_bytes()


def test_a_history_and_its_copy_both_changed_are_refused(tmp_path):
    ledger = _night(tmp_path, 5)
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    ledger.copy.write_bytes(b"")
    ledger.file.write_bytes(b"")
    with pytest.raises(IntegrityError, match="both changed"):
        trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results")
    assert ledger.file.exists() and not (tmp_path / "aside").exists()  # refused before anything moved


def test_a_mutation_window_neither_copies_the_history_nor_holds_it_in_memory(tmp_path):
    ledger = _night(tmp_path, 3000)
    watched = trusted.Watched((), (), (), ledger)
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    snapshot = trusted.take(watched)
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == []
    peak = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    assert peak < 16 * 1024, f"a peak of {peak} bytes"


# what a start finds, the daemon's copy beside the file: (the file, whether a mutation was cut short) ->
# (the file after the start, whether the file as found is saved)
LINES = [encoded(_record(n)) for n in (1, 2, 3)]
COPY = b"".join(LINES)
OTHER = b'{"cycle": 4, "score": 1, "decision": "drop"}\n'
STARTS = {
    "as the copy": (COPY, False, COPY, False),
    "killed between the copy's append and the file's": (COPY[: -len(LINES[2])], False, COPY, False),
    "cut mid-line": (COPY[:-20], True, COPY, False),
    "a line changed": (COPY.replace(b'"score": 0.5', b'"score": 0.9', 1), True, COPY, True),
    "a line another command appended": (COPY + OTHER, False, COPY + OTHER, False),
    "a line the cut-short mutation appended": (COPY + OTHER, True, COPY, True),
    "a torn line after ours": (COPY + OTHER[:10], False, COPY, True),
}


@pytest.mark.parametrize("found", list(STARTS))
def test_a_start_puts_back_what_the_history_lost_and_saves_what_it_replaces(tmp_path, found):
    text, interrupted, after, saved = STARTS[found]
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    copy.parent.mkdir()
    file.write_bytes(text)
    copy.write_bytes(COPY)
    done = repair(file, copy, interrupted)
    assert file.read_bytes() == after
    assert (done is not None and done.saved is not None) == saved
    if done is not None and done.saved is not None:
        assert done.saved.read_bytes() == text
    ledger = Ledger.open(file, copy)
    assert copy.read_bytes() == after and ledger.size == len(after)


def test_a_start_after_the_history_was_removed_keeps_the_copy_aside_unless_a_mutation_removed_it(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(COPY)
    assert repair(file, copy, True) is not None and file.read_bytes() == COPY
    file.unlink()  # the user's, to begin again; or a process a mutator left, or `git clean -ffdx`, after the daemon
    done = repair(file, copy, False)
    assert done is not None and done.kept is not None and not file.exists()
    assert done.kept.read_bytes() == COPY and done.kept.parent == copy.parent  # nothing lost
    Ledger.open(file, copy)
    assert not copy.exists()


def test_an_experiment_of_an_older_version_gets_its_copy_at_the_start(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    file.write_bytes(COPY)
    assert repair(file, copy, True) is None
    Ledger.open(file, copy).append(_record(4))
    assert copy.read_bytes() == file.read_bytes() == COPY + encoded(_record(4))


def test_a_commands_line_goes_to_the_copy_too_so_that_no_start_takes_it_for_a_mutators(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    copy.parent.mkdir()
    file.write_bytes(COPY)
    copy.write_bytes(COPY)
    append_beside(file, copy, _record(4))
    assert copy.read_bytes() == file.read_bytes() == COPY + encoded(_record(4))
    assert repair(file, copy, True) is None


def test_a_commands_line_leaves_a_copy_that_differs_alone(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    copy.parent.mkdir()
    file.write_bytes(COPY[:-20])
    copy.write_bytes(COPY)
    append_beside(file, copy, _record(4))
    assert copy.read_bytes() == COPY


def test_a_start_leaves_a_copy_that_holds_the_files_lines_as_it_is(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    file.write_bytes(COPY)
    Ledger.open(file, copy)
    inode = copy.stat().st_ino
    ledger = Ledger.open(file, copy)
    assert copy.stat().st_ino == inode and ledger.size == len(COPY)
    ledger.append(_record(4))
    assert copy.read_bytes() == file.read_bytes()


def test_a_history_made_a_second_name_of_its_copy_is_put_back_as_a_file_of_its_own(tmp_path):
    ledger = _night(tmp_path, 3)
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    ledger.file.unlink()
    os.link(ledger.copy, ledger.file)  # the same bytes, but every later append would go twice to one file
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == [ledger.file]
    for cycle in (4, 5):
        ledger.append(_record(cycle))
        snapshot = trusted.take(trusted.Watched((), (), (), ledger))
        assert trusted.restore(snapshot, tmp_path / f"aside{cycle}", tmp_path / "results") == []
    assert ledger.file.read_bytes() == ledger.copy.read_bytes() == b"".join(encoded(_record(n)) for n in range(1, 6))


def test_a_start_that_finds_the_history_a_second_name_of_its_copy_makes_the_copy_anew(tmp_path):
    file, copy = tmp_path / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(COPY)
    os.link(copy, file)
    assert repair(file, copy, False) is None
    Ledger.open(file, copy).append(_record(4))
    assert not os.path.samefile(file, copy)
    assert file.read_bytes() == copy.read_bytes() == COPY + encoded(_record(4))
