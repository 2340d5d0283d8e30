"""The records a later decision reads back, put back whole after a mutation that changed them: a large one
(iterations.jsonl after a long night) as well as a small one, without holding it in memory."""

from __future__ import annotations

import os
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
