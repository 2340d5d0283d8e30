"""trajectory.html: one self-contained page with the data drawn in, rewritten after every cycle.

No network at all (no CDN, no fonts, no fetch of iterations.jsonl): the page
must render from disk at 7 a.m. on a laptop without Wi-Fi. A Content-Security-
Policy forbids every request and allows only our own script, by hash, so
even a mistake in escaping could not run injected code.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from importlib import resources
from pathlib import Path

from autoresearch.plumbing import atomic
from autoresearch.plumbing.redact import redact
from autoresearch.trajectory import chartdata, charts, page_parts
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import esc

REFRESH_S = 10
AUTO_REFRESH = '<!-- __AUTO_REFRESH__ --><meta http-equiv="refresh" content="{}">'


@dataclass
class PageData:
    experiment: str
    records: list[Iteration]
    bad_lines: int = 0
    status: str = "running"
    live: bool = True
    state: dict = field(default_factory=dict)  # state.json as a dict: status, stop_reason, started_at, ...
    run_files: dict[str, list[str]] | None = None  # run_dir -> files to link; `write` lists them when None
    refresh_s: int = REFRESH_S  # while live
    reading: chartdata.Reading = chartdata.Reading()  # a metric (val_bpb, lower is better) or 0-1 scores


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
    script = _asset("page.js")
    title = f"autoresearch · {data.experiment}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
{AUTO_REFRESH.format(data.refresh_s) if data.live else ""}
<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<style>{_asset("page.css")}</style></head>
<body data-experiment="{esc(data.experiment)}">
<h1>{esc(title)}</h1>
{_warning(data.bad_lines)}
{_body(data)}
<footer>Written {datetime.now(timezone.utc).isoformat(timespec="seconds")} from iterations.jsonl and state.json.
{f"Refreshes every {data.refresh_s} s while the loop runs." if data.live else "The run is over; this page no longer refreshes."}</footer>
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
    summary = chartdata.summary(data.records)
    cards = f'<section class="cards">{page_parts.cards(summary, data.status, data.state, data.live, data.reading)}</section>'
    if not data.records:
        return (
            cards
            + '<p class="empty">No cycle has finished yet: the first eval of the original artifact is running.</p>'
        )
    series = chartdata.series(data.records, data.reading)
    assertions = (
        page_parts.legend(list(series.assertions)) + charts.assertions_chart(series)
        if series.assertions
        else f"<p>{'A metric has no pass rates: its value is charted above.' if data.reading.metric else 'No per-assertion pass rates were recorded.'}</p>"
    )
    return f"""{cards}
<section><h2>{"Metric" if data.reading.metric else "Score"} per cycle</h2>{charts.score_chart(series)}</section>
<section><h2>Pass rate per assertion</h2>{assertions}</section>
<section><h2>Cumulative cost</h2>{charts.cost_chart(series)}</section>
<section><h2>Cycles</h2>{page_parts.table(data.records, data.run_files)}</section>"""


def write(path: Path, data: PageData) -> None:
    """`path` is `<experiment>/_autoresearch/trajectory.html`; run directories are its siblings' parent's children."""
    if data.run_files is None:
        data = PageData(**{**data.__dict__, "run_files": list_run_files(path.parent.parent, data.records)})
    atomic.write_text(path, redact(render(data)), durable=False)  # a history written before masking, too


def list_run_files(root: Path, records: list[Iteration]) -> dict[str, list[str]]:
    """Which of the files worth linking each run directory really has, so no link leads nowhere."""
    out = {}
    for r in records:
        if r.run_dir and "/" not in r.run_dir and r.run_dir not in (".", ".."):
            out[r.run_dir] = [n for n in page_parts.RUN_FILES if (root / r.run_dir / n).is_file()]
    return out
