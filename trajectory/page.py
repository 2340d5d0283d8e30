"""trajectory.html: one self-contained page with the data drawn in, rewritten after every cycle.

No network at all (no CDN, no fonts, no fetch of iterations.jsonl): the page
must render from disk at 7 a.m. on a laptop without Wi-Fi. A Content-Security-
Policy forbids every request and allows only our own script, by hash, so
even a mistake in escaping could not run injected code.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from importlib import resources
from pathlib import Path

from autoresearch.plumbing import atomic
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.redact import redact
from autoresearch.trajectory import chartdata, charts, drilldown, page_parts, testscores
from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.objectives_chart import objectives_chart
from autoresearch.trajectory.svg import esc

REFRESH_S = 10
AUTO_REFRESH = '<!-- __AUTO_REFRESH__ --><meta http-equiv="refresh" content="{}">'


@dataclass
class PageData:
    experiment: str
    records: Sequence[Drawn]
    bad_lines: int = 0
    status: str = "running"
    live: bool = True
    state: JSONObject = field(default_factory=dict)  # state.json as a dict: status, stop_reason, started_at, ...
    run_files: dict[str, list[str]] | None = None  # run_dir -> files to link; listed under `root` when None
    test_scores: drilldown.Scores | None = None  # cycle -> each test's score; read under `root` when None
    kept_scores: testscores.Kept | None = None  # where `write` keeps what it read, for the next live page
    kept_rows: page_parts.KeptRows | None = None  # where the table keeps the rows it drew, for the same
    refresh_s: int = REFRESH_S  # while live
    reading: chartdata.Reading = chartdata.Reading()  # a metric (val_bpb, lower is better) or 0-1 scores
    root: Path | None = None  # the experiment's folder, where its run directories are (set by `write`)


@cache
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    return (
        "default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{digest}'; img-src data:; base-uri 'none'; form-action 'none'"
    )


def render(data: PageData) -> str:
    title = f"autoresearch · {data.experiment}"
    footer = (
        f"Written {datetime.now(timezone.utc).isoformat(timespec='seconds')} from iterations.jsonl and state.json.\n"
        + (
            f"Refreshes every {data.refresh_s} s while the loop runs."
            if data.live
            else "The run is over; this page no longer refreshes."
        )
    )
    return document(
        title,
        _warning(data.bad_lines) + "\n" + _body(data),
        key=data.experiment,
        head=AUTO_REFRESH.format(data.refresh_s) if data.live else "",
        footer=footer,
    )


def document(title: str, body: str, key: str, head: str = "", footer: str = "") -> str:
    """The frame every page of ours shares: one stylesheet, one script allowed by its hash, no request.
    `key` names the page's remembered legend choices."""
    script = _asset("page.js")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
{head}
<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<style>{_asset("page.css")}</style></head>
<body data-experiment="{esc(key)}">
<h1>{esc(title)}</h1>
{body}
<footer>{esc(footer)}</footer>
<script>{script}</script>
</body></html>
"""


def _warning(bad_lines: int) -> str:
    if not bad_lines:
        return ""
    return (
        f'<div class="warn" id="bad-lines" role="alert">{bad_lines} line(s) of iterations.jsonl could not be read '
        "and are left out; everything else is shown.</div>"
    )


def _body(data: PageData) -> str:
    # the charts' series and the cards' figures in one pass over the lines (the live page reads them from disk)
    series = chartdata.series(data.records, data.reading)
    summary = series.summary or chartdata.summary(data.records)  # (series always finds it)
    cards = page_parts.cards(summary, data.status, data.state, data.live, data.records, data.reading)
    cards = f'<section class="cards">{cards}</section>'
    if not data.records:
        return (
            cards
            + '<p class="empty">No cycle has finished yet: the first eval of the original artifact is running.</p>'
        )
    score, assertions, cost = _charts(data, series)
    return f"""{cards}
<section><h2>{"Metric" if data.reading.metric else "Score"} per cycle</h2>{score}</section>
{_objectives(data.records, series)}<section><h2>Pass rate per assertion</h2>{assertions}</section>
<section><h2>Tests that changed</h2>{drilldown.section(data.records, _test_scores(data))}</section>
<section><h2>Cumulative cost</h2>{cost}</section>
<section><h2>Cycles</h2>{page_parts.table(data.records, _run_files(data), data.kept_rows)}</section>"""


def _charts(data: PageData, series: chartdata.Series) -> tuple[str, str, str]:
    """The score, pass-rate and cost charts. Each part of the page reads what it draws from the lines and
    drops it before the next part reads its own (the series here, each run's scores, each run's files): the
    live page is drawn all night, and what a redraw holds at once is the free memory Python keeps after it."""
    assertions = (
        page_parts.legend(list(series.assertions)) + charts.assertions_chart(series)
        if series.assertions
        else f"<p>{'A metric has no pass rates: its value is charted above.' if data.reading.metric else 'No per-assertion pass rates were recorded.'}</p>"
    )
    return charts.score_chart(series), assertions, charts.cost_chart(series)


def _test_scores(data: PageData) -> drilldown.Scores:
    if data.test_scores is not None or data.root is None:
        return data.test_scores or {}
    return read_test_scores(data.root, data.records, data.kept_scores)


def _run_files(data: PageData) -> Mapping[str, list[str]] | None:
    if data.run_files is not None or data.root is None:
        return data.run_files
    return RunFiles(data.root, data.records)


def _objectives(records: Sequence[Drawn], series: chartdata.Series) -> str:
    chart = objectives_chart(records, series)
    return f"<section><h2>Objectives and gates</h2>{chart}</section>\n" if chart else ""


def write(path: Path, data: PageData) -> None:
    """`path` is `<experiment>/_autoresearch/trajectory.html`; run directories are its siblings' parent's children."""
    data = PageData(**{**data.__dict__, "root": path.parent.parent})
    atomic.write_text(path, redact(render(data)), durable=False)  # a history written before masking, too


def _run_dirs(root: Path, records: Sequence[Drawn]) -> list[tuple[Drawn, str]]:
    """Each record's run directory, when its name is one (never a path out of the experiment); a string, as
    `os` takes it: a `Path` made for every run at every redraw cost more than listing the run."""
    top = os.fspath(root)
    return [(r, os.path.join(top, r.run_dir)) for r in records if _names_a_run(r.run_dir)]


def _names_a_run(run_dir: str) -> bool:
    return bool(run_dir) and "/" not in run_dir and run_dir not in (".", "..")


def list_run_files(root: Path, records: Sequence[Drawn]) -> dict[str, list[str]]:
    """Which of the files worth linking each run directory really has, so no link leads nowhere."""
    return {r.run_dir: _linkable(d) for r, d in _run_dirs(root, records)}


class RunFiles(Mapping[str, list[str]]):
    """`list_run_files`'s mapping, each run listed when its row asks: a list per run of the night, held
    while the table was drawn, grew what a redraw holds at once. The last few listings are kept, since a
    row asks for its run's files and for its changelog's run, the row before's."""

    KEEP = 4

    def __init__(self, root: Path, records: Sequence[Drawn]):
        self._top, self._records = os.fspath(root), records
        self._listed: dict[str, list[str]] = {}

    def __getitem__(self, run_dir: str) -> list[str]:
        if not _names_a_run(run_dir):  # (any run is listed when asked: the table asks for its records' alone)
            raise KeyError(run_dir)
        files = self._listed.get(run_dir)
        if files is None:
            if len(self._listed) == self.KEEP:
                del self._listed[next(iter(self._listed))]
            files = self._listed[run_dir] = _linkable(os.path.join(self._top, run_dir))
        return files

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(r.run_dir for r in self._records if _names_a_run(r.run_dir)))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _linkable(run: str) -> list[str]:
    """One listing of the directory rather than a stat per name: the live page asks it of every run each redraw."""
    try:
        with os.scandir(run) as entries:
            present = {e.name for e in entries if e.name in page_parts.RUN_FILES and e.is_file()}
    except (OSError, ValueError):  # no such directory, or a name no directory can have
        return []
    return [n for n in page_parts.RUN_FILES if n in present]


def read_test_scores(root: Path, records: Sequence[Drawn], kept: testscores.Kept | None = None) -> drilldown.Scores:
    """Error cycles measured nothing worth comparing: they are left out. With `kept`, each line's scores
    are kept by the line's place in `records`."""
    out, top = testscores.Measured(), os.fspath(root)
    for place, r in enumerate(records):
        if r.decision == "error" or not _names_a_run(r.run_dir):
            continue
        d = os.path.join(top, r.run_dir)
        scores = testscores.pairs(d) if kept is None else kept.pairs(place, d)
        if scores:
            out.add(r.cycle, scores)
    return out
