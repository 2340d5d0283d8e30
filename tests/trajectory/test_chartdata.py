"""The series and summary the charts draw, from records with and without the optional fields."""

from __future__ import annotations

import random
import tracemalloc
from array import array

from autoresearch.trajectory import charts
from autoresearch.trajectory.chartdata import Pairs, series, summary
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import CHUNK, joined, ticks
from tests.trajectory import sample


def _it(cycle, score, decision, **extra):
    return Iteration(cycle=cycle, score=score, decision=decision, **extra)


RECORDS = [
    _it(1, 0.4, "keep", cost_usd=0.1, assertions={"a": 0.0}),
    _it(2, 0.0, "error", cost_usd=0.05, mutation_cost_usd=0.02, assertions={"a": 0.0}),
    _it(3, 0.9, "drop", cost_usd=0.1, mutation_cost_usd=0.03, assertions={"a": 1.0}),
    _it(4, 0.6, "keep", cost_usd=0.1, mutation_cost_usd="n/a", assertions={"a": 0.5, "b": 1.0}),
]


def test_head_steps_only_on_keeps_and_a_drop_never_counts_as_best():
    assert list(series(RECORDS).best) == [(1, 0.4), (2, 0.4), (3, 0.4), (4, 0.6)]
    s = summary(RECORDS)
    assert (s.original, s.best, s.best_cycle, s.keeps, s.drops, s.errors) == (0.4, 0.6, 4, 2, 1, 1)
    assert round(s.improvement, 6) == 0.2


def test_error_cycles_leave_gaps_in_pass_rates_and_late_assertions_start_late():
    assert {name: list(pairs) for name, pairs in series(RECORDS).assertions.items()} == {
        "a": [(1, 0.0), (3, 1.0), (4, 0.5)],
        "b": [(4, 1.0)],
    }


def test_costs_accumulate_and_a_missing_or_bad_mutation_cost_counts_as_zero():
    data = series(RECORDS)
    assert [round(v, 6) for _, v in data.eval_cost] == [0.1, 0.15, 0.25, 0.35]
    assert [round(v, 6) for _, v in data.mutation_cost] == [0.0, 0.02, 0.05, 0.05]
    assert round(summary(RECORDS).total_cost, 6) == 0.4


def test_no_records_is_an_empty_summary_not_an_error():
    s = summary([])
    assert (s.original, s.best, s.improvement, s.cycles, s.total_cost) == (None, None, None, 0, 0.0)


def test_ticks_are_round_numbers_inside_the_range():
    assert ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert ticks(1, 1000, 10, integer=True)[:3] == [100, 200, 300]
    assert ticks(1, 3, 10, integer=True) == [1, 2, 3]


def test_a_holdout_score_becomes_its_own_dashed_curve_beside_the_train_score():
    from autoresearch.trajectory.page import PageData, render

    records = [_it(1, 0.4, "keep", holdout_score=0.5), _it(2, 0.6, "keep", holdout_score=0.25), _it(3, 0.0, "error")]
    assert list(series(records).holdout) == [(1, 0.5), (2, 0.25)]
    page = render(PageData("exp", records))
    assert page.count('class="holdout"') == 1 and ">holdout</text>" in page
    assert 'class="holdout"' not in render(PageData("exp", RECORDS))


def test_a_rebaseline_breaks_the_lines_and_starts_the_improvement_again():
    records = [
        _it(1, 0.4, "keep", eval_key="old"),
        _it(2, 0.8, "keep", eval_key="old"),
        _it(3, 0.2, "keep", eval_key="new", rebaseline=True),
        _it(4, 0.5, "keep", eval_key="new"),
    ]
    data = series(records)
    svg = charts.score_chart(data)
    assert data.breaks == [3]
    assert svg.count('class="rebaseline" data-cycle="3"') == 1
    assert svg.count('<polyline class="trace"') == 2
    best_path = svg.split('class="best"')[1].split('d="')[1].split('"')[0]
    assert best_path.count("M") == 2  # HEAD's step line is not drawn from 0.8 down to 0.2 as if it had fallen
    s = summary(records)
    assert (s.rebased, round(s.improvement, 6)) == ((3, 0.2), 0.3)


def test_lines_without_a_key_or_a_marker_read_as_before():
    line = Iteration.model_validate_json('{"cycle": 2, "score": 0.5, "decision": "keep", "rebaseline": [1]}')
    assert (line.eval_key, line.rebaseline, line.measures_head) == (None, None, False)
    assert series([line]).breaks == []


def test_a_line_is_cut_at_every_break_between_two_points_whatever_the_order_of_either():
    """The cuts are found by bisection (a test of every break at every point was quadratic in the night):
    they must be those of that test, for points out of order and breaks listed in any order too."""
    rng = random.Random(5)
    for _ in range(300):
        values = [(rng.randint(1, 40), rng.random()) for _ in range(rng.randint(0, 25))]
        breaks = [rng.randint(0, 42) for _ in range(rng.randint(0, 8))]
        runs: list[list[tuple[int, float]]] = [[]]
        for cycle, value in values:
            if runs[-1] and any(runs[-1][-1][0] < b <= cycle for b in breaks):
                runs.append([])
            runs[-1].append((cycle, value))
        pairs = Pairs(array("q", [c for c, _ in values]), array("d", [v for _, v in values]))
        assert [list(run) for run in charts._split(pairs, breaks)] == [run for run in runs if run]


def test_a_long_nights_series_hold_a_few_bytes_a_line():
    """The live page draws the night every few seconds: a tuple and a float per line and per series (and
    a point per line) made each redraw hold about a kilobyte a line more than the lines themselves."""
    recs = sample.records(2000, assertions=5)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    data = series(recs)
    held = (tracemalloc.get_traced_memory()[0] - before) / len(recs)
    tracemalloc.stop()
    assert held < 200, f"{held:.0f} bytes a line"
    assert len(data.best) == 2000 and len(data.assertions) == 5


def test_markup_joined_a_chunk_at_a_time_is_the_same_markup():
    for count in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7):
        pieces = [f"<p{n}>" for n in range(count)]
        assert joined(iter(pieces)) == "".join(pieces) and joined(pieces, " ") == " ".join(pieces)
