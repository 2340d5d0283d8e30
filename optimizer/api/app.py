"""The control API: read experiments as `status --json` does, and start, stop, roll back and eval;
beside them, the live view's pages.

Every request that changes anything needs the bearer token of `api/token.py`, checked with its body's size
before the body is read (`api/admission.py`); names are checked against the experiment-name rule before they
touch a path, so `../x` (raw or percent-encoded) is refused as a name, never resolved (`api/served.py`).
Starting a run and running the eval go through the real CLI as child processes (`api/child.py`). The routes
live by what they do: `reading.py`, `control.py`, `pages.py`; this module only assembles them.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline

from autoresearch.optimizer.api import control, masked, pages, reading
from autoresearch.optimizer.api.admission import Admission
from autoresearch.optimizer.api.served import Served
from autoresearch.plumbing.errors import AutoresearchError

__all__ = ["Served", "make_app"]


def make_app(served: Served) -> FastAPI:
    """The app for `served`: its routes, the masker on every answer, the token and host checks in front."""
    # /docs (Swagger UI) and /redoc with their scripts and styles served from the installed package, not a
    # CDN: the pages work on a machine with no network, as everything else `serve` shows does.
    app = FastAPIOffline(
        title="autoresearch control API",
        version="1",
        description="Read experiments and start, stop, roll back and evaluate them. "
        "Requests that change anything need `Authorization: Bearer <token>` (the token file `serve` names).",
    )
    app.state.served = served
    masked.install(app)
    app.add_middleware(Admission, token=served.token, check_host=served.check_host)
    app.add_exception_handler(AutoresearchError, _refused)
    app.include_router(reading.router)
    app.include_router(control.router)
    app.include_router(pages.router)  # last: it answers every path the others do not
    return app


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    """What the CLI would refuse with exit 30 (a running experiment, a cycle that was no KEEP, ...)."""
    return JSONResponse({"detail": str(exc)}, status_code=409)
