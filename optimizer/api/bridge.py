"""The chart's routes on the API's server: each request handed to the very handler that served them before.

`trajectory.server.Handler` holds every rule of the live view (the index, nothing outside
the results directory, no symlink out of it, loopback Host names only, no caching, directory
listings of run folders). Rather than restate those rules, a request that is not the API's is
replayed to that handler in memory and its answer returned as it wrote it.
"""

from __future__ import annotations

import io
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from autoresearch.trajectory.server import Handler

HOP_BY_HOP = {"connection", "keep-alive", "server", "date", "transfer-encoding"}


class _InMemory(Handler):
    """The handler on a request held in memory; what it writes is kept in `answer`."""

    answer = b""

    def setup(self) -> None:
        self.written = io.BytesIO()
        self.rfile, self.wfile = io.BytesIO(self.request), self.written

    def finish(self) -> None:
        self.answer = self.written.getvalue()


def raw_request(request: Request) -> bytes:
    target = request.scope.get("raw_path") or request.url.path.encode()
    if request.url.query:
        target += b"?" + request.url.query.encode()
    head = [request.method.encode() + b" " + target + b" HTTP/1.1"]
    head += [name + b": " + value for name, value in request.scope["headers"]]
    return b"\r\n".join(head) + b"\r\n\r\n"


def answer(request: Request, root: Path, check_host: bool) -> Response:
    handler = _InMemory(raw_request(request), ("127.0.0.1", 0), None, root=root, check_host=check_host)
    head, _, body = handler.answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        if name.strip().lower() not in HOP_BY_HOP:
            headers[name.strip()] = value.strip()
    return Response(body, status_code=int(status_line.split()[1]), headers=headers)
