"""The API's answers, masked: routes return records, rows and outputs as they are on disk (an eval's
own index.jsonl may quote a key), and every JSON answer, an error's included, passes through the masker
on its way out."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from autoresearch.plumbing.redact import redact_tree


class MaskedJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return super().render(redact_tree(content))


def install(app: FastAPI) -> None:
    """Mask every answer of `app`: called before its routes are added, which take the default then."""
    app.router.default_response_class = MaskedJSONResponse
    app.add_exception_handler(HTTPException, _masked_error)


async def _masked_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return await http_exception_handler(request, HTTPException(exc.status_code, redact_tree(exc.detail), exc.headers))
