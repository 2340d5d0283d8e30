"""The live view's own pages: `/` lists the experiments with their status from state.json, and a run
directory lists the files the chart links in it.

Which files are served at all is `served.py`'s allow-list; the control API's server
(autoresearch.optimizer.api) answers with these pages, on the loopback interface by default.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.trajectory import page, page_parts, served
from autoresearch.trajectory.svg import esc

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def chart_url(experiment: str) -> str:
    return f"/runs/{quote(experiment, safe='')}/_autoresearch/trajectory.html"


def experiments(results_dir: Path) -> list[tuple[str, JSONObject]]:
    """(name, state.json as a dict) for each experiment with a meta directory, by name."""
    runs = results_dir / "runs"
    out = []
    for meta in sorted(runs.glob("*/_autoresearch")):
        try:
            state = jsonlines.strict((meta / "state.json").read_text(encoding="utf-8"))  # NaN: none
        except (OSError, ValueError):
            state = {}
        out.append((meta.parent.name, state if isinstance(state, dict) else {}))
    return out


INDEX_REFRESH_S = 10
INDEX_HEADER = (
    '<tr><th>experiment</th><th>status</th><th>why</th><th class="num">cycle</th><th class="num">best</th>'
    "<th>updated</th></tr>"
)


def index_page(results_dir: Path) -> str:
    """The list of experiments in the chart's own frame, stylesheet and themes; it refreshes itself."""
    rows = "".join(_index_row(name, st) for name, st in experiments(results_dir))
    body = (
        f'<div class="table-wrap"><table id="experiments"><thead>{INDEX_HEADER}</thead><tbody>{rows}</tbody></table></div>'
        if rows
        else f'<p class="empty">No experiments yet in {esc(results_dir)}.</p>'
    )
    comparisons = sorted((results_dir / "compare").glob("*.html"))  # written by `autoresearch chart A B`
    if comparisons:
        links = "".join(f'<li><a href="/compare/{quote(p.name)}">{esc(p.stem)}</a></li>' for p in comparisons)
        body += f'<h2>Comparisons</h2><ul id="comparisons">{links}</ul>'
    return page.document(
        "autoresearch experiments",
        body,
        key="index",
        head=f'<meta http-equiv="refresh" content="{INDEX_REFRESH_S}">',
        footer=f"Served from {results_dir}; refreshes every {INDEX_REFRESH_S} s.",
    )


def _index_row(name: str, st: JSONObject) -> str:
    status = str(st.get("status") or "")
    headline, why, failed = (
        page_parts.status_text(status, st, live=False) if status != "running" else (status, "", False)
    )
    best = st.get("best_score")
    cycle = st.get("cycle")
    return (
        f'<tr data-experiment="{esc(name)}"><td><a href="{esc(chart_url(name))}">{esc(name)}</a></td>'
        f'<td><span class="status {esc(headline)}{" failed" if failed else ""}">{esc(headline)}</span></td>'
        f"<td>{esc(why)}</td>"
        f'<td class="num">{esc(cycle) if isinstance(cycle, int) else "–"}</td>'
        f'<td class="num">{esc(page_parts.score(best if isinstance(best, (int, float)) else None))}</td>'
        f"<td>{page_parts.time_tag(st.get('updated_at'))}</td></tr>"
    )


def listing_page(listing: served.Listing) -> str:
    """A run directory's linked files (those `served` hands out), in the chart's frame."""
    links = "".join(f'<li><a href="{esc(quote(name))}">{esc(name)}</a></li>' for name in listing.files)
    body = f'<ul id="run-files">{links}</ul>' if links else '<p class="empty">No result files in this run yet.</p>'
    return page.document(
        f"{listing.experiment} · {listing.run}",
        body,
        key="run",
        footer="The files the chart links for this run; its other files stay on disk.",
    )
