"""Which tests changed between two cycles: the page's drill-down below the charts.

Pure: the scores come in as arguments (trajectory.testscores reads them). The page shows one pair
of cycles drawn here (the original against HEAD), so it reads without scripts; the per-test scores
of every cycle ride along as a JSON data block, from which page.js redraws the table for any two
cycles picked (never as markup: it sets text).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.page_parts import run_href, score
from autoresearch.trajectory.svg import batches, esc, joined
from autoresearch.trajectory.testscores import Measured

Scores = Mapping[int, Mapping[str, float]]  # cycle -> test_id -> score
EPSILON = 1e-9
INDEX = "index.jsonl"
PAYLOAD_CHUNK = 32  # cycles of the payload written at a time


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


class MeasuredLines(Iterable[Drawn]):
    """The lines whose cycle has scores, found again at each pass: the live page's lines are read back from
    disk for each pass (trajectory.drawn), and a list of them held every measured line's row at once."""

    def __init__(self, records: Iterable[Drawn], scores: Scores):
        self._records, self._scores = records, scores

    def __iter__(self) -> Iterator[Drawn]:
        return (r for r in self._records if r.cycle in self._scores)


def default_pair(records: Sequence[Drawn], scores: Scores) -> tuple[int, int] | None:
    """The original against HEAD (the last KEEP), or against the last measured cycle while no
    KEEP followed the original: what the night changed."""
    return _pair(MeasuredLines(records, scores))


def _pair(measured: Iterable[Drawn]) -> tuple[int, int] | None:
    first = last = keep = None
    for r in measured:
        if first is None:
            first = r.cycle
        else:
            last = r.cycle
            keep = r.cycle if r.decision == "keep" else keep
    if first is None or last is None:
        return None
    return first, last if keep is None else keep


def section(records: Sequence[Drawn], scores: Scores) -> str:
    measured = MeasuredLines(records, scores)
    pair = _pair(measured)
    if pair is None:
        return '<p class="empty">Per-test results appear here once two cycles have them.</p>'
    a, b = pair
    runs = {r.cycle: r.run_dir for r in records if r.cycle in pair}
    found = changes(scores[a], scores[b])
    options = _options(measured)
    pick = (
        '<form class="pick" id="drilldown-pick">Between cycle '
        f"{_select('from', options, a)} and cycle {_select('to', options, b)}</form>"
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


def _options(measured: Iterable[Drawn]) -> str:
    """Both pickers' options, none selected: drawn once, in one pass over the lines, for the two."""
    return joined(
        f'<option value="{r.cycle}">{r.cycle} · {esc(r.decision.upper())} · {esc(score(r.score))}</option>'
        for r in measured
    )


def _select(name: str, options: str, chosen: int) -> str:
    """Every option of the chosen cycle selected (a cycle listed twice, twice)."""
    chosen_options = options.replace(f'<option value="{chosen}">', f'<option value="{chosen}" selected>')
    return f'<select id="drilldown-{name}" name="{name}">{chosen_options}</select>'


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
    return _payload(MeasuredLines(records, scores), scores)


def _payload(measured: Iterable[Drawn], scores: Scores) -> str:
    tests = sorted(scores.tests if isinstance(scores, Measured) else {t for s in scores.values() for t in s})
    cycles = ({"cycle": r.cycle, "run": r.run_dir, "scores": [scores[r.cycle].get(t) for t in tests]} for r in measured)
    # written PAYLOAD_CHUNK cycles at a time (see svg.joined), as `json.dumps` writes the whole: a batch's
    # objects were what a redraw held most of at once
    listed = ",".join(_json(batch)[1:-1] for batch in batches(cycles, PAYLOAD_CHUNK))
    text = f'{{"tests":{_json(tests)},"cycles":[{listed}]}}'
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
