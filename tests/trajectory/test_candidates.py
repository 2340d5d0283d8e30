"""A cycle's parallel candidates on the chart (rings around the cycle, hover names the strategy) and per strategy in `report`."""

from __future__ import annotations

import json
import re

from autoresearch.trajectory import chartdata, charts, iterations, page
from autoresearch.trajectory.candidates import keeps_per_strategy, points
from autoresearch.trajectory.svg import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH
from tests.helpers.repos import cli
from tests.helpers.scenario import scenario_repo, scores
from tests.trajectory.sample import XSS, state

LINES = [
    {"cycle": 1, "score": 0.4, "decision": "keep", "mutation": "original"},
    {
        "cycle": 2,
        "score": 0.6,
        "decision": "keep",
        "strategy": "simplify",
        "mutation": "shorter rules",
        "candidates": [
            {"index": 0, "decision": "drop", "strategy": "fix-failing", "summary": "add an example", "score": 0.45},
            {"index": 1, "decision": "keep", "strategy": "simplify", "summary": "shorter rules", "score": 0.6},
            {"index": 2, "decision": "drop", "strategy": "clarify", "summary": XSS, "score": 0.3},
        ],
    },
    {
        "cycle": 3,
        "score": 0.7,
        "decision": "keep",
        "strategy": "merge",
        "mutation": "merge of 0 and 2",
        "candidates": [
            {"index": 0, "decision": "drop", "strategy": "fix-failing", "summary": "name the format", "score": 0.62},
            {"index": 1, "decision": "drop", "strategy": "simplify", "summary": "drop rule 3", "score": 0.5},
            {"index": 2, "decision": "drop", "strategy": "clarify", "summary": "reword step 2", "score": 0.64},
            {"index": 3, "decision": "keep", "strategy": "", "summary": "merged", "score": 0.7, "merge_of": [0, 2]},
        ],
    },
    {
        "cycle": 4,
        "score": 0.0,
        "decision": "error",
        "candidates": [{"index": 0, "decision": "error", "strategy": "fix-failing", "summary": "eval broke"}],
    },
    {"cycle": 5, "score": 0.72, "decision": "keep", "strategy": "fix-failing", "mutation": "no candidates recorded"},
    {
        "cycle": 6,
        "score": 0.72,
        "decision": "drop",
        "mutation": "edited by hand",
        "candidates": [
            {"index": 0, "decision": "drop", "strategy": "simplify", "summary": "a", "score": float("nan")},
            {"index": 1, "decision": "drop", "strategy": "simplify", "summary": "b", "score": float("inf")},
            {"index": 900, "decision": "drop", "strategy": "simplify", "summary": "far", "score": 0.65},
        ],
    },
]


def _records(tmp_path):
    path = tmp_path / "iterations.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in LINES))
    records, bad = iterations.read(path)
    assert bad == 0
    return records


def test_every_scored_candidate_is_a_point_of_its_cycle(tmp_path):
    found = points(_records(tmp_path))
    assert [(p.cycle, p.index, p.score) for p in found] == [
        (2, 0, 0.45),
        (2, 1, 0.6),
        (2, 2, 0.3),
        (3, 0, 0.62),
        (3, 1, 0.5),
        (3, 2, 0.64),
        (3, 3, 0.7),
        (6, 900, 0.65),  # NaN and infinity: left out
    ]
    assert found[6].merge_of == (0, 2) and found[0].strategy == "fix-failing"


def test_keeps_are_counted_per_strategy(tmp_path):
    counts = [(c.strategy, c.keeps, c.candidates) for c in keeps_per_strategy(_records(tmp_path))]
    assert counts == [("fix-failing", 1, 3), ("merge", 1, 1), ("simplify", 1, 5), ("clarify", 0, 2)]


def test_a_history_without_candidates_draws_and_reports_none(tmp_path):
    records = _records(tmp_path)[:1]
    assert points(records) == [] and keeps_per_strategy(records) == []
    assert 'class="candidates"' not in charts.score_chart(chartdata.series(records))


def test_the_page_shows_candidates_as_rings_around_their_cycle(tmp_path, watched):
    records = _records(tmp_path)
    html = tmp_path / "trajectory.html"
    page.write(html, page.PageData("exp", records, live=False, state=state(len(records), "finished", "converged")))
    watched.page.goto(html.as_uri())
    rings = watched.page.locator("#score-chart circle.cand")
    assert rings.count() == 8
    step = _cx(watched, '#score-chart circle.pt[data-cycle="3"]') - _cx(
        watched, '#score-chart circle.pt[data-cycle="2"]'
    )
    for cycle, count in ((2, 3), (3, 4), (6, 1)):
        centre = _cx(watched, f'#score-chart circle.pt[data-cycle="{cycle}"]')
        xs = [
            float(x)
            for x in watched.page.locator(f'circle.cand[data-cycle="{cycle}"]').evaluate_all(
                "es => es.map(e => e.getAttribute('cx'))"
            )
        ]
        assert len(xs) == count and len(set(xs)) == count, "each candidate has its own place"
        assert all(abs(x - centre) < step / 2 for x in xs), "around its own cycle, clear of the next"
    merged = watched.page.locator('circle.cand[data-cycle="3"][data-index="3"] title').text_content()
    assert merged == "cycle 3 · merge of 0, 2 · 0.7 · KEEP · merged"
    titled = watched.page.locator('circle.cand[data-cycle="2"][data-index="2"] title').text_content()
    assert "clarify" in titled and XSS in titled  # shown as text
    assert watched.page.locator("#score-chart img").count() == 0 and watched.dialogs == []
    assert watched.page.locator("#score-chart .legend text", has_text="candidates").count() == 1


def _cx(watched, selector: str) -> float:
    return float(watched.page.get_attribute(selector, "cx"))


def test_report_counts_keeps_per_strategy(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0.5)}, {})
    assert cli(repo, "run").returncode == 10
    path = repo / ".autoresearch" / "runs" / "exp" / "_autoresearch" / "iterations.jsonl"
    with path.open("a") as out:
        out.writelines(json.dumps(line) + "\n" for line in LINES[1:])
    done = cli(repo, "report")
    assert done.returncode == 0, done.stderr
    assert (
        "  keeps per strategy: fix-failing 1 of 3, merge 1 of 1, simplify 1 of 5, clarify 0 of 2"
        in done.stdout.splitlines()
    )


def test_every_mark_stays_inside_the_plot_area_even_the_last_cycles_outer_ring(tmp_path):
    three = [
        {"index": i, "decision": "drop", "strategy": s, "summary": s, "score": v}
        for i, (s, v) in enumerate((("fix-failing", 0.0), ("simplify", 1.0), ("clarify", 0.5)))
    ]
    lines = [
        {"cycle": 1, "score": 0.0, "decision": "keep", "mutation": "original", "assertions": {"a": 0.0}},
        {"cycle": 2, "score": 0.0, "decision": "error", "candidates": three},
        {"cycle": 3, "score": 1.0, "decision": "keep", "candidates": three, "assertions": {"a": 1.0}},
        {"cycle": 4, "score": 0.5, "decision": "drop", "candidates": three, "assertions": {"a": 0.5}},
    ]
    path = tmp_path / "iterations.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    data = chartdata.series(iterations.read(path)[0])
    for svg in (charts.score_chart(data), charts.assertions_chart(data), charts.compare_chart([("a", data)])):
        marks = re.findall(
            r'<circle [^>]*cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"[^>]*?(?:stroke-width="([\d.]+)")?', svg
        )
        assert len(marks) >= 3
        for cx, cy, r, stroke in marks:
            reach = float(r) + float(stroke or 0) / 2
            assert LEFT <= float(cx) - reach and float(cx) + reach <= WIDTH - RIGHT, (cx, r)
            assert TOP <= float(cy) - reach and float(cy) + reach <= HEIGHT - BOTTOM, (cy, r)


PARENTED = [
    {"cycle": 1, "score": 0.5, "decision": "keep", "mutation": "original"},
    {
        "cycle": 2,
        "score": 0.5,
        "decision": "drop",
        "candidates": [
            {"index": 0, "decision": "drop", "strategy": "fix-failing", "summary": "fix a, break b", "score": 0.4},
            {"index": 1, "decision": "drop", "strategy": "simplify", "summary": "break c", "score": 0.3},
        ],
    },
    {
        "cycle": 3,
        "score": 0.8,
        "decision": "keep",
        "parent": "2-0",
        "candidates": [
            {"index": 0, "decision": "drop", "strategy": "fix-failing", "summary": "nudge c", "score": 0.45},
            {
                "index": 1,
                "decision": "keep",
                "strategy": "simplify",
                "summary": "mend b",
                "score": 0.8,
                "parent": "2-0",
            },
            {"index": 2, "decision": "drop", "strategy": "clarify", "summary": "lost", "score": 0.2, "parent": "9-9"},
        ],
    },
]


def test_the_page_joins_a_candidate_to_the_parent_it_started_from(tmp_path, watched):
    path = tmp_path / "iterations.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in PARENTED))
    records, _ = iterations.read(path)
    assert [p.parent for p in points(records)] == ["", "", "", "2-0", "9-9"]
    html = tmp_path / "trajectory.html"
    page.write(html, page.PageData("exp", records, live=False, state=state(len(records), "finished", "converged")))
    watched.page.goto(html.as_uri())
    links = watched.page.locator("#score-chart line.parent-link")
    assert links.count() == 1  # a parent that is not drawn (9-9) has no line
    link = links.first
    parent = watched.page.locator('circle.cand[data-cycle="2"][data-index="0"]')
    child = watched.page.locator('circle.cand[data-cycle="3"][data-index="1"]')
    assert [link.get_attribute(a) for a in ("x1", "y1", "x2", "y2")] == [
        parent.get_attribute("cx"),
        parent.get_attribute("cy"),
        child.get_attribute("cx"),
        child.get_attribute("cy"),
    ]
    assert link.locator("title").text_content() == "cycle 3 · candidate 1 started from candidate 2-0"
    assert (
        child.locator("title").text_content()
        == "cycle 3 · candidate 1 · simplify · from candidate 2-0 · 0.8 · KEEP · mend b"
    )
    assert link.bounding_box()["width"] > 0 and watched.dialogs == []
