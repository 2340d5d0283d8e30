"""The records a later decision reads back, put back whole after a mutation that changed them: a large one
(iterations.jsonl after a long night) as well as a small one, without holding it in memory."""

from __future__ import annotations

import contextlib
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from autoresearch.optimizer.guard import trusted

LINE = b'{"cycle": %d, "score": 0.5, "decision": "drop", "run_dir": "2026-11-29T04-00-00-c%04d"}\n'


def _night(meta: Path, cycles: int) -> trusted.Watched:
    meta.mkdir(parents=True)
    (meta / "iterations.jsonl").write_bytes(b"".join(LINE % (n, n) for n in range(1, cycles + 1)))
    (meta / "holdout.json").write_bytes(b'{"tests": ["a", "b"]}\n')
    (meta / "base").mkdir()
    (meta / "base" / "index.jsonl").write_bytes(b'{"test_id": "a", "score": 1.0}\n')
    return trusted.Watched((meta / "iterations.jsonl", meta / "holdout.json"), ((meta / "base", "*.jsonl"),))


def _contents(meta: Path) -> dict[str, bytes]:
    return {str(p.relative_to(meta)): p.read_bytes() for p in sorted(meta.rglob("*")) if p.is_file()}


TAMPER = {
    "cut short": lambda p: p.write_bytes(p.read_bytes()[:100]),
    "a line appended": lambda p: p.write_bytes(p.read_bytes() + b'{"cycle": 9999}\n'),
    "one byte changed": lambda p: p.write_bytes(p.read_bytes().replace(b'"score": 0.5', b'"score": 0.9', 1)),
    "deleted": lambda p: p.unlink(),
    "a symlink": lambda p: (p.unlink(), p.symlink_to(p.parent / "holdout.json")),
    "a folder": lambda p: (p.unlink(), p.mkdir()),
}


@pytest.mark.parametrize("cycles", [3, 3000])  # held in memory, and copied (about 270 KiB)
@pytest.mark.parametrize("how", list(TAMPER))
def test_a_record_a_mutation_changed_comes_back_whole_and_what_it_left_is_kept_aside(tmp_path, cycles, how):
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, cycles)
    before = _contents(meta)
    assert (os.path.getsize(meta / "iterations.jsonl") > trusted.SMALL) == (cycles > 3)
    snapshot = trusted.take(watched)
    TAMPER[how](meta / "iterations.jsonl")
    (meta / "base" / "index.jsonl").write_bytes(b'{"test_id": "a", "score": 0.0}\n')
    aside = tmp_path / "aside"
    changed = trusted.restore(snapshot, aside, tmp_path / "results")
    assert changed == [meta / "base" / "index.jsonl", meta / "iterations.jsonl"]
    assert _contents(meta) == before and not (meta / "iterations.jsonl").is_symlink()
    assert os.path.lexists(aside / "_autoresearch" / "iterations.jsonl") == (how != "deleted")


@pytest.mark.parametrize("cycles", [3, 3000])
def test_records_written_again_with_the_same_bytes_are_unchanged(tmp_path, cycles):
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, cycles)
    snapshot = trusted.take(watched)
    (meta / "iterations.jsonl").write_bytes((meta / "iterations.jsonl").read_bytes())
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == []
    assert not (tmp_path / "aside").exists()


def test_a_long_nights_record_is_not_held_in_memory_while_the_mutators_run(tmp_path):
    """iterations.jsonl read whole before every mutation and again after was the cycle's largest allocation,
    growing a line a cycle all night."""
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, 20000)  # about 1.8 MiB
    size = os.path.getsize(meta / "iterations.jsonl")
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    snapshot = trusted.take(watched)
    held = tracemalloc.get_traced_memory()[0] - start
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == []
    peak = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    assert held < 16 * 1024, f"{held} bytes held of a {size}-byte record"
    assert peak < 512 * 1024, f"a peak of {peak} bytes for a {size}-byte record"


def _listings(run, folder: Path, monkeypatch) -> int:
    """How many times `run` listed `folder` (os.scandir, which both rglob and the guard's own scan list with)."""
    listed: list[str] = []
    scandir = os.scandir

    def counted(path=".", /):
        listed.append(os.fspath(path))
        return scandir(path)

    with monkeypatch.context() as m:
        m.setattr(os, "scandir", counted)
        run()
    return listed.count(os.fspath(folder))


def _past_the_tick(*folders: Path) -> None:
    """Until the filesystem's clock is past each folder's change time (a tick, a few ms at most): a name made
    within the tick a folder was last changed in would leave its change time as it was."""
    probe = folders[0].parent / "clock-probe"
    probe.touch()
    while os.stat(probe).st_ctime_ns <= max(os.stat(f).st_ctime_ns for f in folders):
        os.utime(probe)


def test_a_settled_folder_is_listed_once_and_a_name_made_in_it_is_still_found(tmp_path, monkeypatch):
    """The best run's folder was listed twice a cycle (about 150 us each); it is listed again only when a
    folder in it changed since (its change time, which no process can set back, moved), here after
    SETTLED_NS of 0 rather than the 3 s a folder must be old before its listing is kept."""
    monkeypatch.setattr(trusted, "SETTLED_NS", 0)
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, 3)
    (meta / "base" / "sub").mkdir()
    _past_the_tick(meta / "base", meta / "base" / "sub")
    aside, results = tmp_path / "aside", tmp_path / "results"
    base = meta / "base"
    assert _listings(lambda: trusted.restore(trusted.take(watched), aside, results), base, monkeypatch) == 1
    for place in (meta / "base", meta / "base" / "sub"):
        _past_the_tick(meta / "base", meta / "base" / "sub")
        snapshot = trusted.take(watched)
        (place / "forged.jsonl").write_bytes(b'{"test_id": "a", "score": 0.0}\n')
        assert trusted.restore(snapshot, aside, results) == [place / "forged.jsonl"]
        assert not (place / "forged.jsonl").exists()
    _past_the_tick(meta / "base", meta / "base" / "sub")
    look = lambda: trusted.restore(trusted.take(watched), aside, results)  # noqa: E731
    assert _listings(look, base, monkeypatch) == 1  # listed anew (once: the scan that stamps it lists it), then kept
    assert _listings(look, base, monkeypatch) == 0


def test_a_folder_changed_just_before_or_holding_a_link_is_listed_each_time(tmp_path, monkeypatch):
    """A folder changed within SETTLED_NS of its listing, or with a symbolic link in it (which rglob may
    follow into a folder whose changes move no change time of ours), is listed again at every look."""
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, 3)
    aside, results = tmp_path / "aside", tmp_path / "results"
    look = lambda: trusted.restore(trusted.take(watched), aside, results)  # noqa: E731
    assert _listings(look, meta / "base", monkeypatch) == 2  # changed just now: at each look, one listing
    monkeypatch.setattr(trusted, "SETTLED_NS", 0)
    (tmp_path / "elsewhere").mkdir()
    (meta / "base" / "link").symlink_to(tmp_path / "elsewhere")
    _past_the_tick(meta / "base", tmp_path / "elsewhere")
    assert _listings(look, meta / "base", monkeypatch) >= 4  # at each look, the scan that meets the link, then rglob


@pytest.mark.parametrize("cycles", [3, 3000])  # held in memory, and copied
def test_a_fifo_planted_in_a_records_place_reads_as_a_change_without_waiting_for_a_writer(tmp_path, cycles):
    """A mutator without the sandbox that leaves a named pipe where a record was (or a new one matching a
    watched folder's pattern) held the daemon in the pipe's open until some process wrote to it."""
    meta = tmp_path / "results" / "_autoresearch"
    watched = _night(meta, cycles)
    before = _contents(meta)
    snapshot = trusted.take(watched)
    for path in (meta / "iterations.jsonl", meta / "base" / "index.jsonl", meta / "base" / "planted.jsonl"):
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    outcome: list[list[Path]] = []
    look = threading.Thread(target=lambda: outcome.append(trusted.restore(snapshot, tmp_path / "aside", meta.parent)))
    look.start()
    look.join(timeout=30)  # a failure detector: the look takes milliseconds, or waits for a writer for ever
    blocked = look.is_alive()
    while look.is_alive():  # a writer that comes and goes lets a waiting open return, and the thread end
        for path in meta.rglob("*.jsonl"):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        look.join(timeout=1)
    assert not blocked, "the look waited for a writer of the pipe"
    assert outcome == [[meta / "base" / "index.jsonl", meta / "base" / "planted.jsonl", meta / "iterations.jsonl"]]
    assert _contents(meta) == before
