"""The history a running loop holds: what it needs of every past line, not every line's whole record."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from dataclasses import astuple

import pytest

from autoresearch.optimizer.experiment.history import History, Past
from autoresearch.optimizer.experiment.state import State, summarize
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration
from tests.trajectory.sample import varied

LINES = 2000


def _line(cycle: int) -> Iteration:
    decision = "keep" if cycle % 10 == 1 else "error" if cycle % 7 == 0 else "drop"
    return Iteration(
        cycle=cycle,
        score=cycle / LINES,
        decision=decision,
        cost_usd=0.01,
        mutation_cost_usd=0.02,
        mutation=f"tried idea number {cycle} on the prompt's second paragraph",
        run_dir=f"2026-11-28T01-00-00-{cycle:06d}",
        reason="wins 1 > losses 0",
        commit=f"{cycle:040x}" if decision == "keep" else None,
        eval_key="e" * 64,
        wins=1,
        losses=0,
        ties=3,
        mean_delta=0.25,
        duration_s=1.5,
        tests=4,
    )


def test_a_long_night_holds_a_few_hundred_bytes_a_line_not_every_whole_record():
    """A line's model is about 3 KiB; a night of thousands of cycles held them all (bench/run_memory.py)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        lines = [_line(cycle) for cycle in range(1, LINES + 1)]
        history = History(lines)
        del lines
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / LINES < 500, f"{held / LINES:.0f} bytes a line"
    assert history.last_cycle == LINES and history.best is not None and history.best.cycle == 1991


def test_the_daemons_history_keeps_its_rows_on_disk_a_few_bytes_a_line_in_memory(tmp_path):
    """A `Past` row a line held for good was about 0.2 KiB a cycle of a long night's growth."""
    history = History((_line(cycle) for cycle in range(1, 101)), tmp_path)
    lines = [_line(cycle) for cycle in range(101, LINES + 1)]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for line in lines:
            history.add(line)
        history.last = history.best = history.last_evaluated = None  # the whole records it keeps: a few, not per line
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / (LINES - 100) < 32, f"{held / (LINES - 100):.0f} bytes a line"
    assert history.last_cycle == LINES and history.count("keep") == LINES // 10
    assert [r.cycle for r in history.since(LINES - 2)] == [LINES - 1, LINES]
    history.close()


@pytest.mark.parametrize("on_disk", [False, True])
def test_what_the_loop_reads_of_the_history_is_what_the_lines_say(tmp_path, on_disk):
    history = History((_line(cycle) for cycle in range(1, 31)), tmp_path if on_disk else None)
    assert (history.original.cycle, history.last.cycle, history.best.cycle) == (1, 30, 21)  # type: ignore[union-attr]
    assert history.last_evaluated is not None and history.last_evaluated.cycle == 30
    assert round(history.spent_usd, 6) == 0.9 and history.count("error") == 3 and history.count("keep") == 3
    progress = history.progress(run_start_cycle=20)
    assert (progress.cycles_done, progress.cycles_without_keep, progress.errors_in_a_row) == (10, 9, 0)
    assert [r.cycle for r in history.since(27)] == [28, 29, 30]
    start = history.start_of_run(15)
    assert start is not None and start.cycle == 11
    assert history.expected_cycle_cost(candidates=2) == pytest.approx(0.06) and history.expected_cycle_s() == 1.5
    history.add(_line(31))
    assert history.last_cycle == 31 and history.best.cycle == 31  # type: ignore[union-attr]
    assert [r.commit for r in history.rows if r.commit] == [f"{c:040x}" for c in (1, 11, 21, 31)]


def make_state() -> State:
    return State(experiment="exp", artifact="prompt.md", initial_sha="0" * 40)


def _summary(state: State) -> tuple[object, ...]:
    return (state.cycle, state.keeps, state.drops, state.errors, state.commits, state.best_cycle, state.cost_usd)


def _progress_counted_again(history: History, start: int) -> tuple[int, int, int, int]:
    """What the stop rules read, counted from every row as the loop did before the counts were kept."""
    run = history.since(start)

    def streak(test: Callable[[Past], bool]) -> int:
        return next((n for n, r in enumerate(reversed(run)) if not test(r)), len(run))

    return (
        len(run),
        streak(lambda r: r.decision != "keep"),
        streak(lambda r: r.decision == "error"),
        sum(r.error_reason == "out-of-scope" for r in run),
    )


def test_the_counts_kept_line_by_line_are_those_of_the_history_read_from_the_file(tmp_path):
    """summarize and the stop rules ask after every line: their answers are kept as lines are added (so they
    cost the same at any length) and must be what the whole file says, whatever run they are asked about."""
    lines = varied(120)
    path = tmp_path / "iterations.jsonl"
    live = History(folder=tmp_path)
    live.progress(run_start_cycle=40)  # asked before the run's lines exist, then kept up to date
    for n, line in enumerate(lines, start=1):
        iterations.append(path, line)
        live.add(line)
        read = History(iterations.read(path)[0])
        kept, counted = make_state(), make_state()
        summarize(kept, live)
        summarize(counted, read)
        assert _summary(kept) == _summary(counted)
        assert kept.commits == [
            r.commit for r in read.rows if r.decision == "keep" and not r.measures_head and r.commit is not None
        ]
        assert [live.count(d) for d in ("keep", "drop", "error")] == [
            sum(r.decision == d for r in read.rows) for d in ("keep", "drop", "error")
        ]
        for start in (0, 40, n // 2):
            progress = live.progress(start)
            assert (
                progress.cycles_done,
                progress.cycles_without_keep,
                progress.errors_in_a_row,
                progress.out_of_scope_total,
            ) == _progress_counted_again(read, start)
    assert live.count("error") and live.progress(40).out_of_scope_total and live.commits  # the history has them all
    live.close()


def test_a_row_is_packed_as_its_fields_in_their_order_and_read_back_whole():
    """`Past.packed` writes the fields out one by one (astuple's deep copy was a sixth of a line's recording):
    it must stay what astuple gives, whatever fields a line has (a batch made ahead among them)."""
    lines = [
        *varied(60),
        Iteration(cycle=61, score=0.5, decision="drop", made_ahead=3, carried=1, overlap_lost_usd=0.2),
    ]
    history = History(lines)
    for line, row in zip(lines, history.rows, strict=True):
        assert Past.of(line).packed() == astuple(Past.of(line))
        assert row == Past.of(line)
    assert history.rows[-1].ahead is not None and history.rows[-1].ahead.edits == 3
