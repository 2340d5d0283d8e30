"""The drill-down's numbers and the reading of each run's per-test results, on real files."""

from __future__ import annotations

import json
import os
import random
import tracemalloc

import pytest

from autoresearch.trajectory import drilldown, page, page_parts, testscores
from autoresearch.trajectory.iterations import Iteration


def _rec(cycle: int, decision: str, run_dir: str = "") -> Iteration:
    return Iteration(cycle=cycle, score=0.5, decision=decision, run_dir=run_dir or f"run-c{cycle}")


def test_changes_are_the_tests_whose_score_moved_biggest_first():
    before = {"a": 1.0, "b": 0.0, "c": 0.5, "gone": 1.0}
    after = {"a": 1.0, "b": 1.0, "c": 0.25, "new": 0.0}
    found = drilldown.changes(before, after)
    assert [(c.test, c.before, c.after) for c in found] == [
        ("b", 0.0, 1.0),
        ("gone", 1.0, None),
        ("c", 0.5, 0.25),
        ("new", None, 0.0),
    ]
    assert drilldown.summary(found, 5) == "4 of 5 tests changed: 1 up, 3 down or gone."


def test_the_default_pair_is_the_original_against_head():
    recs = [_rec(1, "keep"), _rec(2, "keep"), _rec(3, "drop"), _rec(4, "error")]
    scores = {1: {"t": 0.0}, 2: {"t": 1.0}, 3: {"t": 0.0}}
    assert drilldown.default_pair(recs, scores) == (1, 2)
    assert drilldown.default_pair(recs[:1] + recs[2:], scores) == (1, 3)  # no KEEP yet: the last measured
    assert drilldown.default_pair(recs, {1: {"t": 0.0}}) is None


def test_the_data_block_cannot_close_its_script_element():
    recs = [_rec(1, "keep"), _rec(2, "keep")]
    evil = "</script><script>alert(1)</script>&amp;"
    text = drilldown.payload(recs, {1: {evil: 0.0}, 2: {evil: 1.0}})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["tests"] == [evil]


def test_results_are_read_leniently_and_repeats_average(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    lines = [
        {"test_id": "a", "score": 1.0},
        {"test_id": "a", "score": 0.0},
        {"test_id": "b", "score": True},  # not a number
        {"test_id": 7, "score": 1.0},  # not a name
        {"score": 1.0},
        ["not", "an", "object"],
    ]
    text = "\n".join(json.dumps(x) for x in lines) + '\n{"test_id": "c", "score": NaN}\n{"torn": \n'
    (run / "index.jsonl").write_text(text)
    assert testscores.read(run) == {"a": 0.5}
    assert testscores.read(tmp_path / "missing") == {}
    (tmp_path / "dir-run").mkdir()
    (tmp_path / "dir-run" / "index.jsonl").mkdir()  # a directory where the file should be
    assert testscores.read(tmp_path / "dir-run") == {}


def test_a_rewritten_results_file_is_read_again(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    index = run / "index.jsonl"
    index.write_text('{"test_id": "a", "score": 0.0}\n')
    assert testscores.read(run) == {"a": 0.0}
    index.write_text('{"test_id": "a", "score": 1.0}\n{"test_id": "b", "score": 1.0}\n')
    os.utime(index, ns=(1, 1))  # whatever the clock's resolution, the cache key changed
    assert testscores.read(run) == {"a": 1.0, "b": 1.0}


def test_scores_kept_for_the_live_page_read_as_the_file_does_and_again_when_it_moves(tmp_path):
    kept = testscores.Kept(tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    index = run / "index.jsonl"
    index.write_text('{"test_id": "a", "score": 0.0}\n{"test_id": "a", "score": 1.0}\n')
    assert kept.read(3, run) == testscores.read(run) == {"a": 0.5}
    assert kept.read(3, run) == {"a": 0.5}  # from the spill
    index.write_text('{"test_id": "b", "score": 1.0}\n')
    os.utime(index, ns=(1, 1))  # whatever the clock's resolution, the key moved
    assert kept.read(3, run) == {"b": 1.0}
    assert kept.read(1, run) == {"b": 1.0}  # another place, below the ones kept
    assert kept.read(0, tmp_path / "missing") == {}
    kept.close()


def test_the_live_pages_test_scores_are_kept_on_disk_not_in_memory(tmp_path):
    """Each run's scores held for good were most of what the chart kept per cycle: now a few bytes a run.
    Measured after three thousand reads: Python keeps freed tuples for reuse (up to 2,000 of each size), which
    tracemalloc counts where they were first made, so what it keeps grows for a while, then stays."""
    kept = testscores.Kept(tmp_path)
    runs = []
    for n in range(10):
        run = tmp_path / f"2026-11-28T20-00-00-{n:06d}"
        run.mkdir()
        (run / "index.jsonl").write_text(
            "".join(json.dumps({"test_id": f"test-{t}", "score": (n + t) % 3 / 2}) + "\n" for t in range(5))
        )
        runs.append(run)
    tracemalloc.start()
    for place in range(3000):
        kept.read(place, runs[place % 10])
    before = tracemalloc.get_traced_memory()[0]
    for place in range(3000, 4000):
        kept.read(place, runs[place % 10])
    held = (tracemalloc.get_traced_memory()[0] - before) / 1000
    tracemalloc.stop()
    assert held < 32, f"{held:.0f} bytes a run"
    assert kept.read(3999, runs[9]) == testscores.read(runs[9]) and kept.read(5, runs[5]) == testscores.read(runs[5])
    kept.close()


def test_run_directories_outside_the_experiment_are_never_read(tmp_path):
    root = tmp_path / "runs" / "exp"
    (root / "_autoresearch").mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "index.jsonl").write_text('{"test_id": "secret", "score": 1.0}\n')
    recs = [_rec(1, "keep", "../../elsewhere"), _rec(2, "keep", ".."), _rec(3, "drop", "run-c3")]
    assert page.read_test_scores(root, recs) == {}


def test_each_cycles_changelog_is_found_where_the_mutator_wrote_it():
    """Cycle N's mutation.md is in the run it started from: the last evaluated one before it; an error
    cycle's moves into its own directory when the next cycle starts (optimizer/cycle/mutate.py)."""
    recs = [_rec(1, "keep"), _rec(2, "drop"), _rec(3, "error"), _rec(4, "keep"), _rec(5, "error")]
    assert page_parts.changelog_dirs(recs) == {
        2: "run-c1",
        3: "run-c3",  # moved when cycle 4 started
        4: "run-c2",
        5: "run-c4",  # the last cycle: still where the mutator wrote it
    }


def test_the_pages_scores_map_cycles_as_a_dict_would_in_order_or_not():
    """Cycles as the daemon writes them, then out of order and twice (a file edited by hand): the last
    scores of a cycle win, as assigning them to a dict in turn would."""
    rng = random.Random(3)
    for cycles in (list(range(1, 40)), [rng.randint(1, 25) for _ in range(60)], [5, 3, 5, 1]):
        measured, expected = testscores.Measured(), {}
        for n, cycle in enumerate(cycles):
            pairs = tuple((f"t{t}", (n + t) / 7) for t in range(n % 3 + 1))
            measured.add(cycle, pairs)
            expected[cycle] = dict(pairs)
        assert dict(measured) == expected and len(measured) == len(expected)
        assert all(measured[c] == expected[c] and c in measured for c in expected)
        assert 0 not in measured and 99 not in measured and "5" not in measured


def test_the_pages_scores_hold_no_object_per_cycle():
    """A dict per cycle, held while the live page was drawn, was a third of what a redraw held at once."""
    pairs = (("t1", 0.5), ("t2", 1.0))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    measured = testscores.Measured()
    for cycle in range(1, 2001):
        measured.add(cycle, pairs)
    held = (tracemalloc.get_traced_memory()[0] - before) / 2000
    tracemalloc.stop()
    assert held < 80, f"{held:.0f} bytes a cycle"
    assert measured[1234] == {"t1": 0.5, "t2": 1.0}


def test_the_live_tables_run_files_are_those_listed_up_front(tmp_path):
    root = tmp_path / "exp"
    recs = [_rec(n, "drop", f"run-c{n}") for n in range(1, 13)] + [_rec(13, "keep", ".."), _rec(14, "keep")]
    for n in range(1, 12):  # the last run has no directory
        (root / f"run-c{n}").mkdir(parents=True)
        for name in page_parts.RUN_FILES[: n % 4 + 1]:
            (root / f"run-c{n}" / name).write_text("x")
    listed = page.list_run_files(root, recs)
    lazy = page.RunFiles(root, recs)
    assert lazy == listed and len(lazy) == 13
    assert [lazy.get(r.run_dir) for r in recs] == [listed.get(r.run_dir) for r in recs]


def test_a_cycle_listed_twice_links_its_last_lines_run_and_the_payload_is_the_whole_json():
    """The section's pair, its runs, the options and the payload come from one pass over the lines: a cycle of
    the pair listed again later links the run of its last line, as a mapping of every line made it, and the
    payload, written a batch at a time, is `json.dumps` of the whole."""
    recs = [_rec(1, "keep", "a"), _rec(2, "keep", "b"), _rec(1, "drop", "c"), _rec(2, "drop", "d")]
    recs += [_rec(n, "drop") for n in range(3, 3 + 2 * drilldown.PAYLOAD_CHUNK)]
    scores = {r.cycle: {"t": r.cycle / 100, "u": 1.0} for r in recs}
    html = drilldown.section(recs, scores)
    assert "../c/index.jsonl" in html and "../d/index.jsonl" in html
    assert "../a/" not in html and "../b/" not in html
    whole = {
        "tests": ["t", "u"],
        "cycles": [{"cycle": r.cycle, "run": r.run_dir, "scores": [r.cycle / 100, 1.0]} for r in recs],
    }
    assert drilldown.payload(recs, scores) == json.dumps(whole, separators=(",", ":"))
    assert html.count("<option ") == 2 * len(recs) and html.count(" selected>") == 4  # cycles 1 and 2, twice each
    keep_first = [_rec(1, "drop", "a"), _rec(1, "keep", "b"), _rec(1, "drop", "c")]
    assert drilldown.default_pair(keep_first, scores) == (1, 1)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_row_whose_text_holds_a_unicode_line_separator_is_charted(tmp_path, separator):
    """JSON leaves U+2028, U+2029 and U+0085 raw in a string: the row is one line, not two that do not parse."""
    run = tmp_path / "run"
    run.mkdir()
    text = json.dumps({"test_id": "a", "score": 0.5, "output": f"one{separator}two"}, ensure_ascii=False) + "\r\n"
    (run / "index.jsonl").write_text(text + '{"test_id": "b", "score": 1}\n', newline="")
    assert testscores.read(run) == {"a": 0.5, "b": 1.0}
