"""trajectory.html: a self-contained page with the data embedded, rewritten after every cycle."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path

from trajectory import atomic
from trajectory.iterations import Iteration

AUTO_REFRESH = '<!-- __AUTO_REFRESH__ --><meta http-equiv="refresh" content="10">'


@dataclass
class PageData:
    experiment: str
    records: list[Iteration]
    bad_lines: int = 0
    status: str = "running"
    live: bool = True
    state: dict = field(default_factory=dict)  # state.json as a dict: status, stop_reason, started_at, ...


def render(data: PageData) -> str:
    rows = "\n".join(
        "<tr><td>{}</td><td>{:.4f}</td><td>{}</td><td>{}</td></tr>".format(
            r.cycle, r.score, html.escape(r.decision), html.escape(r.mutation)
        )
        for r in data.records
    )
    payload = json.dumps([r.model_dump(mode="json") for r in data.records]).replace("</", "<\\/")
    warning = f"<p class=warn>{data.bad_lines} line(s) of iterations.jsonl could not be read.</p>" if data.bad_lines else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
{AUTO_REFRESH if data.live else ""}
<title>autoresearch: {html.escape(data.experiment)}</title></head>
<body><h1>{html.escape(data.experiment)}</h1><p>Status: {html.escape(data.status)}</p>{warning}
<table><tr><th>cycle</th><th>score</th><th>decision</th><th>mutation</th></tr>
{rows}
</table>
<script type="application/json" id="data">{payload}</script>
</body></html>
"""


def write(path: Path, data: PageData) -> None:
    atomic.write_text(path, render(data))
