"""Which tests changed between two cycles: the page's drill-down below the charts.

Pure: the scores come in as arguments (trajectory.testscores reads them). The page shows one pair
of cycles drawn here (the original against HEAD), so it reads without scripts; the per-test scores
of every cycle ride along as a JSON data block, from which page.js redraws the table for any two
cycles picked (never as markup: it sets text).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.page_parts import run_href, score
from autoresearch.trajectory.svg import batches, esc, joined
from autoresearch.trajectory.testscores import Measured

Scores = Mapping[int, Mapping[str, float]]  # cycle -> test_id -> score
EPSILON = 1e-9
INDEX = "index.jsonl"


@dataclass(frozen=True)
class Change:
    test: str
    before: float | None  # None: the test did not run in that cycle
    after: float | None

    @property
    def delta(self) -> float:
        return (self.after or 0.0) - (self.before or 0.0)


def changes(before: Mapping[str, float], after: Mapping[str, float]) -> list[Change]:
    """The tests whose score differs (or that ran in one cycle only), the biggest moves first."""
    out = []
    for test in sorted(before.keys() | after.keys()):
        a, b = before.get(test), after.get(test)
        if a is None or b is None or abs(a - b) > EPSILON:
            out.append(Change(test, a, b))
    return sorted(out, key=lambda c: -abs(c.delta))


def default_pair(records: Sequence[Drawn], scores: Scores) -> tuple[int, int] | None:
    """The original against HEAD (the last KEEP), or against the last measured cycle while no
    KEEP followed the original: what the night changed."""
    return _pair([r for r in records if r.cycle in scores])


def _pair(measured: Sequence[Drawn]) -> tuple[int, int] | None:
    if len(measured) < 2:
        return None
    first = measured[0]
    keeps = [r for r in measured[1:] if r.decision == "keep"]
    return first.cycle, (keeps[-1] if keeps else measured[-1]).cycle


def section(records: Sequence[Drawn], scores: Scores) -> str:
    measured = [r for r in records if r.cycle in scores]  # once: each part below reads the measured lines alone
    pair = _pair(measured)
    if pair is None:
        return '<p class="empty">Per-test results appear here once two cycles have them.</p>'
    a, b = pair
    runs = {r.cycle: r.run_dir for r in records if r.cycle in pair}
    found = changes(scores[a], scores[b])
    pick = (
        '<form class="pick" id="drilldown-pick">Between cycle '
        f"{_select('from', measured, a)} and cycle {_select('to', measured, b)}</form>"
    )
    rows = "".join(_row(c, runs[a], runs[b]) for c in found)
    return (
        f'{pick}<p class="drilldown-summary" id="drilldown-summary">{esc(summary(found, len(scores[a].keys() | scores[b].keys())))}</p>'
        '<div class="table-wrap"><table id="drilldown"><thead><tr><th>test</th>'
        f'<th class="num" id="drilldown-a">cycle {a}</th><th class="num" id="drilldown-b">cycle {b}</th>'
        f'<th class="num">change</th><th>results</th></tr></thead><tbody>{rows}</tbody></table></div>'
        f'<script type="application/json" id="test-scores">{_payload(measured, scores)}</script>'
    )


def summary(found: list[Change], total: int) -> str:
    up = sum(c.delta > 0 for c in found)
    return f"{len(found)} of {total} tests changed: {up} up, {len(found) - up} down or gone."


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _select(name: str, measured: Sequence[Drawn], chosen: int) -> str:
    options = joined(
        f'<option value="{r.cycle}"{" selected" if r.cycle == chosen else ""}>'
        f"{r.cycle} · {esc(r.decision.upper())} · {esc(score(r.score))}</option>"
        for r in measured
    )
    return f'<select id="drilldown-{name}" name="{name}">{options}</select>'


def _row(c: Change, run_a: str, run_b: str) -> str:
    direction = "up" if c.delta > 0 else "down"
    return (
        f'<tr class="{direction}"><td class="test">{esc(c.test)}</td><td class="num">{esc(score(c.before))}</td>'
        f'<td class="num">{esc(score(c.after))}</td><td class="num delta">{c.delta:+.3g}</td>'
        f'<td class="links"><a href="{esc(run_href(run_a, INDEX))}">before</a> '
        f'<a href="{esc(run_href(run_b, INDEX))}">after</a></td></tr>'
    )


def payload(records: Sequence[Drawn], scores: Scores) -> str:
    """Every measured cycle's scores as JSON that cannot end the script element it sits in."""
    return _payload([r for r in records if r.cycle in scores], scores)


def _payload(measured: Sequence[Drawn], scores: Scores) -> str:
    tests = sorted(scores.tests if isinstance(scores, Measured) else {t for s in scores.values() for t in s})
    cycles = ({"cycle": r.cycle, "run": r.run_dir, "scores": [scores[r.cycle].get(t) for t in tests]} for r in measured)
    # written a few hundred cycles at a time (see svg.joined), as `json.dumps` writes the whole
    listed = ",".join(_json(batch)[1:-1] for batch in batches(cycles))
    text = f'{{"tests":{_json(tests)},"cycles":[{listed}]}}'
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
