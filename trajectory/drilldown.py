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
from autoresearch.trajectory.svg import esc
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
    return _drawn(records, scores).pair


@dataclass
class _Drawn:
    """What the section draws of the lines, from one pass over the measured ones (the live page's are read
    back from disk at each pass: finding the pair, its runs, the options and the payload were four)."""

    pair: tuple[int, int] | None  # None: fewer than two measured lines
    runs: dict[int, str]  # the pair's cycles -> the run of the last line of that cycle
    options: str  # both pickers' options, none selected
    payload: str  # every measured cycle's scores as JSON (see `payload`)


def _drawn(records: Iterable[Drawn], scores: Scores) -> _Drawn:
    """The pair is the first measured cycle against the last KEEP after
    it, or the last measured cycle when none; the options and the payload are written PAYLOAD_CHUNK lines at
    a time (see svg.joined), as `json.dumps` writes the whole: a batch's objects were what a redraw held most
    of at once."""
    tests = sorted(scores.tests if isinstance(scores, Measured) else {t for s in scores.values() for t in s})
    first = last = keep = None
    run_first = run_last = run_keep = ""
    options: list[str] = []
    listed: list[str] = []
    batch: list[Drawn] = []
    for r in MeasuredLines(records, scores):
        cycle = r.cycle
        if first is None:
            first = cycle
        else:
            last, run_last = cycle, r.run_dir
            if r.decision == "keep":
                keep = cycle
            if cycle == keep:
                run_keep = r.run_dir
        if cycle == first:
            run_first = r.run_dir
        batch.append(r)
        if len(batch) == PAYLOAD_CHUNK:
            _flush(batch, scores, tests, options, listed)
    _flush(batch, scores, tests, options, listed)
    payload = f'{{"tests":{_json(tests)},"cycles":[{",".join(listed)}]}}'
    if first is None or last is None:
        return _Drawn(None, {}, "".join(options), payload)
    pair, run_b = ((first, last), run_last) if keep is None else ((first, keep), run_keep)
    # a cycle whose lines are both of the pair: run_b is its last line's run, as run_first is
    return _Drawn(pair, {first: run_first, pair[1]: run_b}, "".join(options), payload)


def _flush(batch: list[Drawn], scores: Scores, tests: list[str], options: list[str], listed: list[str]) -> None:
    if not batch:
        return
    options.append(
        "".join(
            f'<option value="{r.cycle}">{r.cycle} · {esc(r.decision.upper())} · {esc(score(r.score))}</option>'
            for r in batch
        )
    )
    cycles = [{"cycle": r.cycle, "run": r.run_dir, "scores": [scores[r.cycle].get(t) for t in tests]} for r in batch]
    listed.append(_json(cycles)[1:-1])
    batch.clear()


def section(records: Sequence[Drawn], scores: Scores) -> str:
    drawn = _drawn(records, scores)
    if drawn.pair is None:
        return '<p class="empty">Per-test results appear here once two cycles have them.</p>'
    (a, b), runs = drawn.pair, drawn.runs
    found = changes(scores[a], scores[b])
    pick = (
        '<form class="pick" id="drilldown-pick">Between cycle '
        f"{_select('from', drawn.options, a)} and cycle {_select('to', drawn.options, b)}</form>"
    )
    rows = "".join(_row(c, runs[a], runs[b]) for c in found)
    return (
        f'{pick}<p class="drilldown-summary" id="drilldown-summary">{esc(summary(found, len(scores[a].keys() | scores[b].keys())))}</p>'
        '<div class="table-wrap"><table id="drilldown"><thead><tr><th>test</th>'
        f'<th class="num" id="drilldown-a">cycle {a}</th><th class="num" id="drilldown-b">cycle {b}</th>'
        f'<th class="num">change</th><th>results</th></tr></thead><tbody>{rows}</tbody></table></div>'
        f'<script type="application/json" id="test-scores">{_escaped(drawn.payload)}</script>'
    )


def summary(found: list[Change], total: int) -> str:
    up = sum(c.delta > 0 for c in found)
    return f"{len(found)} of {total} tests changed: {up} up, {len(found) - up} down or gone."


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


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
    return _escaped(_drawn(records, scores).payload)


def _escaped(text: str) -> str:
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
