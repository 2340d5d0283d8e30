"""The live page drawn from small rows read as lines are appended: the same HTML as from whole records."""

from __future__ import annotations

import gc
import json
import re
import sys
import tracemalloc

import pytest

from autoresearch.trajectory import iterations, page, page_parts, testscores
from autoresearch.trajectory.chartdata import Reading
from autoresearch.trajectory.drawn import Rows
from autoresearch.trajectory.spill import Spilled
from tests.trajectory.sample import SCRIPT_XSS, XSS, records, state, varied, write_experiment

CANDIDATES = [
    {"index": 0, "decision": "drop", "strategy": "fix-failing", "summary": XSS, "score": 0.45},
    {"index": 1, "decision": "keep", "strategy": "simplify", "summary": "shorter", "score": 0.6, "parent": "3-0"},
    {"index": 2, "decision": "drop", "strategy": "", "summary": "merged", "score": 0.5, "merge_of": [0, 1]},
    {"index": 3, "decision": "drop", "strategy": "clarify", "summary": "hand-edited", "score": float("nan")},
    {"index": 4, "decision": "error", "strategy": "clarify", "summary": "eval broke"},
]
# what the night's lines carry beyond the sample's: candidates, objectives and gates, early discards, a
# holdout, a re-baseline, commits, error kinds, fields of another tool and fields in another shape
EXTRA = {
    3: {"candidates": CANDIDATES[:2], "strategy": "simplify", "commit": "0123456789abcdef"},
    5: {"candidates": CANDIDATES, "objectives": {"correctness": 0.5, "cost": 0.02}},
    6: {"gate": "max_cost_increase", "reason": f"cost doubled {SCRIPT_XSS}", "objectives": {"cost": 0.04}},
    7: {"skipped_tests": 3, "tests": 5, "reason": "discarded early"},
    8: {"holdout_score": 0.61, "holdout_tests": 4, "other_tool": {"nested": [1, 2]}},
    9: {"rebaseline": True, "eval_key": "abc", "wins": "three", "mutation_cost_usd": None},
    10: {"mutation": XSS, "error_reason": "eval-failed", "duration_s": float("inf")},
    11: {"skipped_tests": 2, "wins": 1, "losses": 4, "ties": 0, "objectives": {"correctness": 0.7, "cost": 0.01}},
}
BAD = ['{"cycle": 99, "score": ', "[1, 2]", "not json", '{"cycle": 0, "score": 0.5, "decision": "keep"}', ""]


def night(cycles: int = 40) -> list[str]:
    """iterations.jsonl's lines: the sample's varied run, the extras above, bad lines among them, and a
    trailing run of errors (the page says which errors stopped the run)."""
    lines = []
    for r in records(cycles, seed=11):
        line = {**r.model_dump(mode="json", exclude_none=True), **EXTRA.get(r.cycle, {})}
        if r.decision == "keep" and r.cycle % 2:
            line.setdefault("commit", f"{r.cycle:040x}")
        lines.append(json.dumps({k: v for k, v in line.items() if v is not None}))
    for cycle in range(cycles + 1, cycles + 4):
        lines.append(json.dumps({"cycle": cycle, "score": 0.0, "decision": "error", "error_reason": "no-change"}))
    for i, bad in enumerate(BAD):
        lines.insert(4 + 7 * i, bad)
    return lines


def _experiment(tmp_path, lines):
    meta = tmp_path / "runs" / "exp" / "_autoresearch"
    meta.mkdir(parents=True)
    for n, line in enumerate(lines):
        run_dir = json.loads(line).get("run_dir") if line.startswith("{") and line.endswith("}") else None
        if run_dir:
            (meta.parent / run_dir).mkdir()
            (meta.parent / run_dir / "index.jsonl").write_text(
                f'{{"test_id": "t1", "score": {n % 3 / 2}}}\n{{"test_id": "t{n % 4}", "score": 1.0}}\n'
            )
            if n % 3:
                (meta.parent / run_dir / "mutation.md").write_text("changed\n")
    return meta


def _page(meta, recs, bad, reading, live):
    st = {**state(len(recs), "running" if live else "stopped", None if live else "errors"), "pid": 4}
    page.write(
        meta / "trajectory.html",
        page.PageData("exp", recs, bad, status="running" if live else "stopped", live=live, state=st, reading=reading),
    )
    return re.sub(r"Written \S+ from", "Written (now) from", (meta / "trajectory.html").read_text())


@pytest.mark.parametrize("reading", [Reading(), Reading(metric=True, goal="minimize")])
@pytest.mark.parametrize("live", [True, False])
def test_rows_read_as_lines_come_draw_the_page_the_whole_records_draw(tmp_path, reading, live):
    lines = night()
    meta = _experiment(tmp_path, lines)
    path = meta / "iterations.jsonl"
    rows = Rows(path)
    for end in (0, 1, 9, 10, 26, len(lines)):  # lines appended in bursts, a page drawn after each
        path.write_text("".join(line + "\n" for line in lines[:end]))
        recs, bad = iterations.read(path)
        drawn, drawn_bad = rows.read()
        assert (drawn_bad, len(drawn)) == (bad, len(recs))
        assert _page(meta, drawn, drawn_bad, reading, live) == _page(meta, recs, bad, reading, live)
    assert bad == len(BAD) - 1 and 'id="objectives-chart"' in _page(meta, drawn, drawn_bad, reading, live)


def test_the_live_page_drawn_after_every_line_is_the_page_drawn_from_scratch(tmp_path):
    """As the daemon draws it (record.write_chart): the rows, each run's scores and the table's rows kept
    from the pages before, one line more each time. A night of every kind of line (re-baselines, candidates, gates,
    objectives, holdout, early discards, errors, bad lines), and a file added to an old run meanwhile, must
    draw after each line the page that `autoresearch chart` draws from the whole file."""
    lines = [json.dumps(r.model_dump(mode="json", exclude_none=True)) for r in varied(70)]
    for i, bad in enumerate(BAD[:3]):
        lines.insert(5 + 20 * i, bad)
    meta = _experiment(tmp_path, lines)
    path, live, scratch = meta / "iterations.jsonl", meta / "trajectory.html", meta / "scratch.html"
    rows, kept, table = Rows(path), testscores.Kept(meta), page_parts.kept_rows(meta)
    with path.open("a") as f:
        for n, line in enumerate(lines):
            f.write(line + "\n")
            f.flush()
            if n == 30:  # a file appears in a run drawn long before (a grader's output, written late)
                (meta.parent / json.loads(lines[2])["run_dir"] / "grading.json").write_text("{}")
            drawn, drawn_bad = rows.read()
            data = page.PageData("exp", drawn, drawn_bad, state=state(len(drawn)), kept_scores=kept, kept_rows=table)
            page.write(live, data)
            recs, bad = iterations.read(path)
            page.write(scratch, page.PageData("exp", recs, bad, state=state(len(recs))))
            assert _stamped(live) == _stamped(scratch)
    page_html = live.read_text()
    assert page_html.count('class="rebaseline"') == 7 and 'class="gated"' in page_html and bad == 3
    assert 'class="cand ' in page_html and 'class="holdout"' in page_html and 'id="test-scores"' in page_html
    rows.close()
    kept.close()
    table.close()


def _stamped(path):
    return re.sub(r"Written \S+ from", "Written (now) from", path.read_text())


def test_a_file_replaced_or_cut_is_read_again_from_its_start(tmp_path):
    lines = night(12)
    meta = _experiment(tmp_path, lines)
    path = meta / "iterations.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    rows = Rows(path)
    rows.read()
    for kept in (lines[3:], lines[:5]):  # another file in its place (another inode), then the same cut short
        path.with_suffix(".new").write_text("".join(line + "\n" for line in kept))
        path.with_suffix(".new").replace(path)
        recs, bad = iterations.read(path)
        drawn, drawn_bad = rows.read()
        assert [(r.cycle, r.score, r.run_dir) for r in drawn] == [(r.cycle, r.score, r.run_dir) for r in recs]
        assert drawn_bad == bad
    with open(path, "r+") as f:
        f.truncate(len(lines[0]) + 1)
    assert [r.cycle for r in rows.read()[0]] == [1]


def test_the_rows_of_a_long_night_are_kept_on_disk_not_in_memory(tmp_path):
    """What the daemon keeps for the live page grows by a few bytes a line (a row's place on disk), not by
    a row: held for good, a row per line was most of a long night's growth. Measured after as many lines
    as it measures: Python keeps freed objects for reuse, which tracemalloc counts as held for a while."""
    path = tmp_path / "iterations.jsonl"
    lines = night(2000)
    rows = Rows(path)
    tracemalloc.start()
    with path.open("a") as f:
        for n in range(0, len(lines), 100):  # a hundred lines, then a redraw's read, its rows dropped after it
            if n == 1000:
                before = tracemalloc.get_traced_memory()[0]
            f.write("".join(line + "\n" for line in lines[n : n + 100]))
            f.flush()
            rows.read()
    held = (tracemalloc.get_traced_memory()[0] - before) / (len(lines) - 1000)
    tracemalloc.stop()
    assert held < 32, f"{held:.0f} bytes a line"
    assert [r.cycle for r in rows.read()[0]] == [r.cycle for r in iterations.read(path)[0]]
    rows.close()


def test_a_row_read_back_is_the_record_as_the_page_draws_it(tmp_path):
    path = tmp_path / "iterations.jsonl"
    path.write_text("".join(line + "\n" for line in night()))
    drawn, recs = Rows(path).read()[0], iterations.read(path)[0]
    assert len(drawn) == len(recs) and drawn[-1] == drawn[len(drawn) - 1] and list(drawn[1:3]) == [drawn[1], drawn[2]]
    for r, record in zip(drawn, recs, strict=True):
        assert (r.cycle, r.score, r.decision, dict(r.assertions), r.partial, r.objectives) == (
            record.cycle,
            record.score,
            record.decision,
            record.assertions,
            record.partial,
            record.objectives,
        )
    with pytest.raises(IndexError):
        drawn[len(drawn)]


def test_a_live_redraws_objects_at_their_peak_do_not_grow_with_the_night(tmp_path):
    """The most objects a live redraw holds at once (counted at every return of a function while it draws):
    the free memory Python keeps after a redraw is that peak's, and the loop's objects made meanwhile pin it,
    so a peak that grew with the night grew the daemon with it. Held rows, lists of the measured lines, a
    mapping of the changelogs, a chart's formatted coordinates: each was an object or more a line."""
    peaks = [_peak_blocks(tmp_path / f"n{n}", n) for n in (400, 1600)]
    assert peaks[1] - peaks[0] < 300, peaks  # main: about 12 objects a line more (14,000)


def _peak_blocks(root, lines):
    """A night as `bench/run_memory.py` runs it: one test, no assertions, the objectives every cycle records."""
    recs = [
        r.model_copy(update={"objectives": {"correctness": r.score, "size": 100.0 + r.cycle}})
        for r in records(lines, assertions=0)
    ]
    meta = write_experiment(root, recs)
    rows, kept, table = Rows(meta / "iterations.jsonl"), testscores.Kept(meta), page_parts.kept_rows(meta)

    def redraw():
        drawn, bad = rows.read()
        data = page.PageData("exp", drawn, bad, state=state(lines), kept_scores=kept, kept_rows=table)
        page.write(meta / "trajectory.html", data)

    redraw()  # the night so far drawn: what the session keeps between two redraws is on disk
    gc.collect()
    start, peak = sys.getallocatedblocks(), [0]

    def count(frame, event, arg):
        if event in ("return", "c_return"):
            peak[0] = max(peak[0], sys.getallocatedblocks())

    sys.setprofile(count)
    try:
        redraw()
    finally:
        sys.setprofile(None)
    rows.close()
    kept.close()
    table.close()
    return peak[0] - start


@pytest.mark.parametrize("first", [3, 5])
def test_a_history_whose_last_cycle_is_below_its_first_is_drawn_live_as_from_scratch(tmp_path, first):
    """Cycles the daemon never wrote in that order (another writer's lines appended after its own, a hand
    edit): the page is still drawn, the same both ways; a chart's cycles laid out for a negative span raised."""
    recs = records(6)
    lines = [json.dumps(r.model_dump(mode="json", exclude_none=True)) for r in recs[first - 1 :] + recs[:1]]
    meta = _experiment(tmp_path, lines)
    path = meta / "iterations.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    drawn, bad = Rows(path).read()
    assert _page(meta, drawn, bad, Reading(), True) == _page(meta, *iterations.read(path), Reading(), True)


def test_a_live_redraw_reads_the_night_back_from_disk_five_times(tmp_path):
    """Each pass over the live page's rows reads the night back from disk and makes each row again: the
    series, the cards' figures, the candidates, the objectives and the gated lines are one pass, the
    table's check that the cycles ascend none, the drill-down's pair, runs, options and payload one (13
    passes before). The others: the score chart's points, each run's scores, the table."""
    lines = night()
    meta = _experiment(tmp_path, lines)
    path = meta / "iterations.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    rows, kept, table = Rows(path), testscores.Kept(meta), page_parts.kept_rows(meta)

    def redraw():
        drawn, bad = rows.read()
        data = page.PageData("exp", drawn, bad, state=state(len(drawn)), kept_scores=kept, kept_rows=table)
        page.write(meta / "trajectory.html", data)

    redraw()
    passes: list[object] = []  # each pass's generator frame (held: a frame's id may be reused once freed)

    def count(frame, event, arg):
        if event == "call" and frame.f_code is Spilled.__iter__.__code__ and all(f is not frame for f in passes):
            passes.append(frame)

    sys.setprofile(count)
    try:
        redraw()
    finally:
        sys.setprofile(None)
    assert len(passes) == 5
