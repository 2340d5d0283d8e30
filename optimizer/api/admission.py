"""What a request must show before the API reads a byte of its body: a loopback Host name, the token for
anything that changes state, and a body under `MAX_BODY`.

FastAPI reads and parses a route's body before it solves the route's dependencies, so a
token checked by a dependency came after an unauthenticated 50 MB body had been read and
parsed. This sits under every route as plain ASGI instead: a refused request is answered
from its headers alone, and an accepted one's body is read here, up to the cap, and
handed on as it came (chunked or with a Content-Length alike).
"""

from __future__ import annotations

import secrets

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from autoresearch.trajectory.server import LOOPBACK

MAX_BODY = 64 * 1024  # the API's bodies are a few bytes of JSON ({"cycle": 3}, {"now": true})
READS = ("GET", "HEAD")  # every other method changes something, or may: the token first
NEEDS_TOKEN = "a bearer token is needed: the one in the token file `serve` printed"


def token_matches(authorization: str | None, token: str) -> bool:
    """`Authorization: Bearer <token>`, compared in constant time."""
    scheme, _, given = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and secrets.compare_digest(given.strip().encode(), token.encode())


def unauthorized() -> JSONResponse:
    return JSONResponse(
        {"detail": NEEDS_TOKEN},
        status_code=401,
        headers={"WWW-Authenticate": "Bearer"},
    )


class Admission:
    """ASGI middleware in front of the whole app: the chart's files and the API alike."""

    def __init__(self, app: ASGIApp, token: str, check_host: bool) -> None:
        self.app, self.token, self.check_host = app, token, check_host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is None and scope["method"] not in READS:
            body = await _body(receive)
            if body is None:
                refusal = _too_large()
            else:
                receive = _replay(body, receive)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> Response | None:
        """The answer to a request refused on its headers, or None."""
        headers = Headers(scope=scope)
        host = (headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
        if self.check_host and host not in LOOPBACK:  # a web page whose DNS name was re-pointed at 127.0.0.1
            return PlainTextResponse("this server answers only to 127.0.0.1 and localhost", status_code=403)
        if scope["method"] in READS:
            return None
        if not token_matches(headers.get("authorization"), self.token):
            return unauthorized()
        length = headers.get("content-length")
        if length is not None and not (length.isdigit() and int(length) <= MAX_BODY):
            return _too_large()
        return None


def _too_large() -> Response:
    return JSONResponse({"detail": f"a request body is at most {MAX_BODY} bytes"}, status_code=413)


async def _body(receive: Receive) -> bytes | None:
    """The whole body, or None as soon as it passes the cap (the rest is never read)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: nothing to hand on
            return b""
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read here once, then whatever the connection says next."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again
