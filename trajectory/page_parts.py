"""The HTML pieces of the trajectory page around its charts: summary cards, legend, table of cycles.

Every value that comes from iterations.jsonl or state.json goes through
`esc` (text) or `quote` (URLs): a mutation summary is text, never markup.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import cast
from urllib.parse import quote

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.trajectory.chartdata import Reading, Summary, number
from autoresearch.trajectory.charts import dash_attr, series_color
from autoresearch.trajectory.drawn import Drawn, Night
from autoresearch.trajectory.spill import ByPlace
from autoresearch.trajectory.svg import batches, esc

CHANGELOG = "mutation.md"  # written by the mutator into the run it started from: see changelog_dirs
RUN_FILES = ("index.jsonl", "candidate.patch", CHANGELOG, "grading.json", "benchmark.json", "eval.stderr.log")


def score(value: float | None) -> str:
    return "–" if value is None else f"{value:.4g}"


def money(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def time_tag(value: object) -> str:
    """Date and time in their own spans: the script rewrites each in the reader's time zone, and a card
    shows them on two lines instead of wrapping wherever the locale's format happens to break."""
    if not value:
        return "–"
    date, _, clock = str(value).partition("T")
    return (
        f'<time datetime="{esc(value)}"><span class="date">{esc(date)}</span> '
        f'<span class="clock">{esc(clock or "")}</span></time>'
    )


def _card(label: str, value: str, note: str = "", css: str = "") -> str:
    note_html = f'<div class="note">{note}</div>' if note else ""
    return f'<div class="card {css}"><div class="label">{esc(label)}</div><div class="value">{value}</div>{note_html}</div>'


def _improvement(s: Summary, reading: Reading) -> tuple[str, str]:
    """A minimize goal's gain is a fall: 1.7 -> 0.9 reads "0.8 lower", not "-0.8, -47% of the original"."""
    if s.improvement is None:
        return "–", ""
    start = f"cycle {s.rebased[0]}'s re-baseline (the eval changed)" if s.rebased else "the original"
    if reading.goal == "minimize":
        relative = f"{-s.improvement / abs(s.start):.0%} below {start}" if s.start else ""
        return f"{-s.improvement:.4g} lower", f"{relative}; lower is better".lstrip("; ")
    relative = f"{s.improvement / abs(s.start):+.0%} of {start}" if s.start else f"since {start}" if s.rebased else ""
    return f"{s.improvement:+.4g}", relative


# Why a run ended, in words (state.json's stop_reason: autoresearch.policies.stop.StopReason).
REASONS = {
    "target": "reached the target score",
    "max_cycles": "made the cycles it was given",
    "converged": "converged: no KEEP in the last cycles",
    "budget": "the budget is spent",
    "deadline": "the deadline came",
    "stop-requested": "a stop was asked for",
    "mutations-exhausted": "the mutator had no change left",
    "interrupted": "interrupted by a signal",
    "failed": "an error ended the run (see daemon.log)",
    "errors": "cycles kept failing (see the errors below)",
    "out-of-scope": "the mutator kept changing files outside the artifact",
}
FAILURES = frozenset({"failed", "errors", "out-of-scope"})  # the stops that exit non-zero


def status_text(
    status: str, state: JSONObject, live: bool, records: Sequence[Drawn] | None = None
) -> tuple[str, str, bool]:
    """(headline, detail, failed): what the loop is doing, or why it ended. A run stopped by errors never
    reads as a plain "finished" beside a bare code name; given the records, it says which errors."""
    if live:
        phase = state.get("phase")
        detail = f"cycle {state.get('cycle', '?')}, {phase}" if phase else ""
        return "running", detail, False
    reason = state.get("stop_reason")
    headline = str(state.get("status") or status)
    if reason == "errors" and records and records[-1].decision == "error":
        return _errors_stop(headline, records)
    failed = reason in FAILURES
    if failed and headline == "finished":
        headline = "stopped"
    return headline, REASONS.get(str(reason), str(reason)) if reason else "", failed


def _errors_stop(headline: str, records: Sequence[Drawn]) -> tuple[str, str, bool]:
    """The error cycles that ended the run: a mutator that changed nothing is done, not broken."""
    trailing = []
    for r in reversed(records):
        if r.decision != "error":
            break
        trailing.append(r.error_reason or "error")
    if set(trailing) == {"no-change"}:
        return headline, f"the mutator changed nothing in its last {len(trailing)} attempts", False
    kinds = ", ".join(sorted(set(trailing)))
    return "stopped", f"{len(trailing)} cycles in a row failed ({kinds}): see the errors below", True


def cards(
    s: Summary,
    status: str,
    state: JSONObject,
    live: bool,
    records: Sequence[Drawn] | None = None,
    reading: Reading = Reading(),
) -> str:
    gain, relative = _improvement(s, reading)
    headline, detail, failed = status_text(status, state, live, records)
    best_note = f"HEAD, cycle {s.best_cycle}" if s.best_cycle is not None else "no KEEP yet"
    return "".join(
        [
            _card("original score", esc(score(s.original)), "cycle 1, the untouched artifact"),
            _card("best score", esc(score(s.best)), esc(best_note)),
            _card("improvement", esc(gain), esc(relative)),
            _card("cycles", str(s.cycles)),
            _card("keeps / drops / errors", f"{s.keeps} / {s.drops} / {s.errors}"),
            _card(
                "total cost",
                esc(money(s.total_cost)),
                esc(f"eval {money(s.eval_cost)} + mutation {money(s.mutation_cost)}"),
            ),
            _card("status", esc(headline), esc(detail), "running" if live else "done failed" if failed else "done"),
            _card("started", time_tag(state.get("started_at")), css="when"),
            _card("last update", time_tag(state.get("updated_at")), css="when"),
        ]
    )


def legend(names: list[str]) -> str:
    """Buttons, not SVG: 50 names wrap and scroll like text, and each is a keyboard-reachable toggle."""
    buttons = [
        '<button type="button" class="all" data-action="all">show all</button>',
        '<button type="button" class="all" data-action="none">hide all</button>',
    ]
    for i, name in enumerate(names):
        buttons.append(
            f'<button type="button" data-series="{i}" aria-pressed="true" title="{esc(name)}">'
            f"{swatch(i)}{esc(name)}</button>"
        )
    return f'<div class="series-legend" role="group" aria-label="assertions">{"".join(buttons)}</div>'


def swatch(index: int) -> str:
    """The assertion line as the chart draws it."""
    return line_swatch(series_color(index), index)


def line_swatch(color: str, index: int) -> str:
    """A line's colour and dash pattern both: the colour alone may not tell it apart."""
    return (
        '<svg class="swatch" width="22" height="10" viewBox="0 0 22 10" aria-hidden="true">'
        f'<line x1="1" y1="5" x2="21" y2="5" stroke="{color}" stroke-width="2.5"{dash_attr(index)}/></svg>'
    )


HEADER = (
    "<tr><th>cycle</th><th>score</th><th>decision</th><th title='wins / losses / ties against HEAD'>W / L / T</th>"
    "<th>mutation</th><th>cost</th><th>duration</th><th>time</th><th>files</th></tr>"
)


TABLE_CHUNK = 32  # rows of the table joined at a time (a kilobyte each)
RowKey = tuple[object, ...]  # what a row of the table is drawn from (see `_row_key`)
KeptRows = ByPlace[RowKey, str]  # the live page's rows, each drawn once


def kept_rows(folder: Path) -> KeptRows:
    """Where the live page keeps its table's rows between redraws (the session's, in `folder`)."""
    return ByPlace(folder, _read_back)


def _read_back(value: object) -> tuple[RowKey, str]:
    return cast(tuple[RowKey, str], value)  # marshal reads back the tuples it wrote


def table(records: Sequence[Drawn], run_files: Mapping[str, list[str]] | None, kept: KeptRows | None = None) -> str:
    """Newest cycle first: in the morning, and while watching, the latest is what you look for. With `kept`,
    a row whose line, run files and changelog are those it was drawn from is not drawn again."""
    rows = (
        _kept_row(place, r, run_files, changelog, kept) for place, (r, changelog) in enumerate(_changelogs(records))
    )
    # newest first, TABLE_CHUNK rows at a time (see svg.joined): a string a row, held until the last was drawn
    body = "".join(reversed(["".join(reversed(batch)) for batch in batches(rows, TABLE_CHUNK)]))
    return f'<div class="table-wrap"><table id="cycles"><thead>{HEADER}</thead><tbody>{body}</tbody></table></div>'


def _kept_row(
    place: int, r: Drawn, run_files: Mapping[str, list[str]] | None, changelog: str | None, kept: KeptRows | None
) -> str:
    if kept is None:
        return _row(r, run_files, changelog)
    key = _row_key(r, run_files, changelog)
    html = kept.get(place, key)
    if html is None:
        html = _row(r, run_files, changelog)
        kept.put(place, key, html)
    return html


def _row_key(r: Drawn, run_files: Mapping[str, list[str]] | None, changelog: str | None) -> RowKey:
    """Everything `_row` reads, as plain values: the line's fields, its run's files and its changelog's place."""
    partial = None if r.partial is None else (r.partial.scored, r.partial.total)
    # a list: `tuple()` of a generator resizes the tuple it guessed, and each freed 5-tuple went to CPython's
    # free list of them, which a row per line filled (up to 2,000, 160 KiB) rather than drew from
    numbers = [number(r, k) for k in ("wins", "losses", "ties", "duration_s", "mutation_cost_usd")]
    files = None if run_files is None else tuple(run_files.get(r.run_dir, ()))
    linked = bool(changelog) and _has(run_files, changelog or "", CHANGELOG)
    fields = (r.cycle, r.score, r.decision, r.mutation, r.error, r.cost_usd, r.timestamp, r.run_dir, r.commit)
    return (*fields, partial, *numbers, files, changelog, linked)


def changelog_dirs(records: Sequence[Drawn]) -> dict[int, str]:
    """cycle -> the run directory holding that cycle's mutation.md. The mutator writes its changelog into
    the run just decided (the last evaluated one before it: mutators.base.MutationRequest), not into its
    own; an error cycle's is moved into its own directory when the next cycle starts (cycle/mutate.py)."""
    return {r.cycle: changelog for r, changelog in _in_order(records) if changelog is not None}


def _changelogs(records: Sequence[Drawn]) -> Iterator[tuple[Drawn, str | None]]:
    """Each line with its `changelog_dirs` entry, found as the lines are read while their cycles ascend (as
    a night's do): the live page reads its lines back from disk, and the mapping held a run's name a line. The live page's rows say whether they ascend (`Night`): no pass to check it."""
    ascending = (
        records.ascending if isinstance(records, Night) else all(a.cycle < b.cycle for a, b in pairwise(records))
    )
    if ascending:
        return _in_order(records)
    changelogs = changelog_dirs(records)  # a cycle listed twice: its last line's entry, for both
    return ((r, changelogs.get(r.cycle)) for r in records)


def _in_order(records: Sequence[Drawn]) -> Iterator[tuple[Drawn, str | None]]:
    decided = None
    last = len(records) - 1
    for i, r in enumerate(records):
        changelog = None
        if decided is not None and r.run_dir:
            moved = r.decision == "error" and i < last
            changelog = r.run_dir if moved else decided
        if r.decision != "error" and r.run_dir:
            decided = r.run_dir
        yield r, changelog


def _row(r: Drawn, run_files: Mapping[str, list[str]] | None, changelog: str | None) -> str:
    wlt = [number(r, k) for k in ("wins", "losses", "ties")]
    duration = number(r, "duration_s")
    mutation_cost = number(r, "mutation_cost_usd") or 0.0
    error = r.error
    error_html = f'<div class="err">{esc(error)}</div>' if error else ""
    return (
        f'<tr data-cycle="{r.cycle}" class="{esc(r.decision)}"><td class="num">{r.cycle}</td>'
        f"{_score_cell(r)}"
        f'<td><span class="badge {esc(r.decision)}">{esc(r.decision.upper())}</span></td>'
        f'<td class="num">{" / ".join("–" if v is None else f"{v:g}" for v in wlt)}</td>'
        f'<td class="mutation">{esc(r.mutation)}{error_html}</td>'
        f'<td class="num" title="eval {esc(money(r.cost_usd))} + mutation {esc(money(mutation_cost))}">'
        f"{esc(money(r.cost_usd + mutation_cost))}</td>"
        f'<td class="num">{"–" if duration is None else f"{duration:.1f} s"}</td>'
        f'<td>{time_tag(r.timestamp)}</td><td class="links">{_links(r, run_files, changelog)}</td></tr>'
    )


def _score_cell(r: Drawn) -> str:
    """An early discard's score is over the tests it ran: the cell says how many, its title says why."""
    if r.partial is None:
        return f'<td class="num">{esc(score(r.score))}</td>'
    return (
        f'<td class="num partial" title="score {esc(r.partial)}">{esc(score(r.score))}'
        f'<span class="of-tests"> ({r.partial.scored} of {r.partial.total} tests)</span></td>'
    )


def run_href(run_dir: str, name: str = "") -> str:
    """Relative links from `_autoresearch/trajectory.html` to `../<run_dir>/`: they work from disk and when served."""
    return "../" + quote(run_dir, safe="") + "/" + quote(name)


def _has(run_files: Mapping[str, list[str]] | None, run_dir: str, name: str) -> bool:
    """Without a listing of the run directories, link what the daemon writes."""
    return run_files is None or name in run_files.get(run_dir, [])


def _links(r: Drawn, run_files: Mapping[str, list[str]] | None, changelog: str | None) -> str:
    parts = []
    if r.run_dir:
        names = run_files.get(r.run_dir, []) if run_files is not None else _expected_files(r)
        parts.append(f'<a href="{esc(run_href(r.run_dir))}">run</a>')
        parts.extend(f'<a href="{esc(run_href(r.run_dir, n))}">{esc(n)}</a>' for n in names if n != CHANGELOG)
    if changelog and _has(run_files, changelog, CHANGELOG):
        parts.append(f'<a class="changelog" href="{esc(run_href(changelog, CHANGELOG))}">{CHANGELOG}</a>')
    commit = r.commit
    if isinstance(commit, str) and commit:
        parts.append(f'<code title="git show {esc(commit)}">{esc(commit[:10])}</code>')
    return " ".join(parts)


def _expected_files(r: Drawn) -> list[str]:
    return ["index.jsonl"] + (["candidate.patch"] if r.decision != "keep" else [])
