"""The digest written after each of the ledger's appends, from where its last read stopped, says what a whole
read of iterations.jsonl says: a masked secret, a line another writer appended, a file replaced, all as read.
HEAD's results are read once while it is HEAD."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from autoresearch.optimizer.experiment.digest import Digest
from autoresearch.optimizer.guard.ledger import Ledger
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory.iterations import Iteration, append, read

SECRET = "sk-live-0123456789abcdef"
_watching: list[list[str]] = []  # the files opened during the `_opened_during` under way, if one is


def _watch(event: str, args: tuple) -> None:
    if _watching and event == "open" and isinstance(args[0], (str, Path)):
        _watching[-1].append(str(args[0]))


# A hook cannot be removed, and it stays for every later test of the worker: it lists nothing outside
# `_opened_during` (listing every open for good grew the process's memory under later tests that measure it)
sys.addaudithook(_watch)


def _record(cycle: int, run_dir: str = "", mutation: str = "") -> Iteration:
    decision = "keep" if cycle == 1 or cycle % 4 == 0 else "drop"
    return Iteration(
        cycle=cycle, score=cycle / 100, decision=decision, mutation=mutation or f"idea {cycle}", run_dir=run_dir
    )


def _run_dir(paths: ExperimentPaths, name: str, scores: dict[str, float]) -> str:
    folder = paths.run_dir(name)
    folder.mkdir(parents=True)
    rows = "".join(f'{{"test_id": "{t}", "score": {s}}}\n' for t, s in scores.items())
    (folder / "index.jsonl").write_text(rows)
    return name


def _opened_during(action, path: Path) -> list[str]:
    _watching.append([])
    try:
        action()
    finally:
        opened = _watching.pop()
    return [p for p in opened if Path(p) == path]


@pytest.fixture
def night(tmp_path, monkeypatch):
    monkeypatch.setenv("ACME_API_KEY", SECRET)
    paths = ExperimentPaths(tmp_path / "exp")
    paths.iterations.parent.mkdir(parents=True)
    ledger = Ledger.open(paths.iterations, tmp_path / "vault" / "iterations.jsonl")
    ledger.append(_record(1, _run_dir(paths, "r1", {"a": 0, "b": 1})))
    digest = Digest(paths)
    digest.write()
    return paths, ledger, digest


def test_the_text_written_after_each_append_is_a_whole_reads(night):
    paths, ledger, digest = night
    for cycle in range(2, 40):
        mutation = f"quoted {SECRET} by mistake" if cycle == 7 else ""
        run_dir = _run_dir(paths, f"r{cycle}", {"a": cycle % 2, "b": (cycle // 2) % 2})
        ledger.append(_record(cycle, run_dir, mutation))
        digest.write()
        assert paths.digest.read_text() == digest.render(read(paths.iterations)[0])
    text = paths.digest.read_text()
    assert SECRET not in text and "quoted *** by mistake" in text and "Helped: a; hurt: none" in text


def test_a_line_another_writer_appended_or_a_file_replaced_is_shown_as_read(night):
    paths, ledger, digest = night
    ledger.append(_record(2))
    append(paths.iterations, _record(3))  # not the ledger's
    digest.write()
    assert paths.digest.read_text() == digest.render(read(paths.iterations)[0]) and "idea 3" in paths.digest.read_text()
    ledger.append(_record(4))
    digest.write()
    other = paths.iterations.with_name("other.jsonl")
    append(other, _record(1))
    append(other, _record(2, mutation="another history"))
    other.replace(paths.iterations)
    ledger.append(_record(3))  # appended to the new file: the digest must read it from its start
    digest.write()
    assert paths.digest.read_text() == digest.render(read(paths.iterations)[0])
    assert "another history" in paths.digest.read_text() and "idea 4" not in paths.digest.read_text()


def test_a_summary_quoting_a_unicode_line_separator_is_shown_as_a_whole_read_shows_it(night):
    """A read split the line at U+2028 or U+0085 (JSON leaves them unescaped): the cycle was lost."""
    paths, ledger, digest = night
    ledger.append(_record(2, mutation="first half\u2028second half\x85end"))
    ledger.append(_record(3))
    digest.write()
    assert paths.digest.read_text() == digest.render(read(paths.iterations)[0])
    assert Digest(paths).render(read(paths.iterations)[0]).count("first half") == 1


def test_heads_results_are_read_once_while_it_is_head(night):
    paths, ledger, digest = night
    head = _run_dir(paths, "r4", {"a": 1, "b": 1})
    ledger.append(_record(4, head))
    digest.write()
    for cycle in (5, 6, 7):
        ledger.append(_record(cycle, _run_dir(paths, f"r{cycle}", {"a": 0, "b": 1})))
        assert _opened_during(digest.write, paths.run_dir(head) / "index.jsonl") == []
    assert paths.digest.read_text() == digest.render(read(paths.iterations)[0])
    assert paths.digest.read_text().count("Helped: none; hurt: a") == 3
