"""The live view: the results directory over HTTP, on the loopback interface by default.

Only files under the results directory are served (no `..`, no symlink out of
it), nothing is cached (the page is rewritten after every cycle and reloads
itself), and `/` lists the experiments with their status from state.json.
"""

from __future__ import annotations

import io
import json
import os
import socket
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

from autoresearch.trajectory import page, page_parts
from autoresearch.trajectory.svg import esc

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def chart_url(experiment: str) -> str:
    return f"/runs/{quote(experiment, safe='')}/_autoresearch/trajectory.html"


def experiments(results_dir: Path) -> list[tuple[str, dict]]:
    """(name, state.json as a dict) for each experiment with a meta directory, by name."""
    runs = results_dir / "runs"
    out = []
    for meta in sorted(runs.glob("*/_autoresearch")):
        try:
            state = json.loads((meta / "state.json").read_text(encoding="utf-8"))
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


def _index_row(name: str, st: dict) -> str:
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


class Handler(SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler already drops `..` segments; `send_head` also refuses symlinks out of the
    root and, on loopback, Host names other than loopback ones (DNS rebinding)."""

    # Run files open in the browser instead of downloading.
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        **dict.fromkeys((".jsonl", ".log", ".patch", ".md", ".json"), "text/plain; charset=utf-8"),
    }

    def __init__(self, *args, root: Path, check_host: bool, **kwargs):
        self.root = root
        self.check_host = check_host
        super().__init__(*args, directory=str(root), **kwargs)

    def send_head(self):
        """Every GET and HEAD passes here: the checks cannot be bypassed by the method."""
        if self.check_host and not self._host_is_loopback():
            self.send_error(HTTPStatus.FORBIDDEN, "this server answers only to 127.0.0.1 and localhost")
            return None
        if self.path.split("?", 1)[0] in ("/", "/index.html"):
            return self._html(index_page(self.root))
        if not self._inside_root():
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return super().send_head()

    def _host_is_loopback(self) -> bool:
        """A web page whose DNS name is re-pointed at 127.0.0.1 sends its own name as Host: refuse it."""
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
        return host in LOOPBACK

    def _inside_root(self) -> bool:
        target = Path(os.path.realpath(self.translate_path(self.path)))
        return target == self.root or self.root in target.parents

    def _html(self, text: str) -> io.BytesIO:
        body = text.encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        """Quiet: a page refreshing every 10 seconds would flood the terminal."""


class _IPv6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def make_server(results_dir: Path, host: str = "127.0.0.1", port: int = 8765) -> ThreadingHTTPServer:
    """Bound but not yet serving; port 0 picks a free port (read it from `server.server_address`)."""
    root = Path(os.path.realpath(results_dir))
    server_class = _IPv6Server if ":" in host else ThreadingHTTPServer
    server = server_class((host, port), partial(Handler, root=root, check_host=host in LOOPBACK))
    server.daemon_threads = True
    return server
