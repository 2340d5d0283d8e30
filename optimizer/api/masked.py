"""The API's answers, masked: routes return records, rows and outputs as they are on disk (an eval's
own index.jsonl may quote a key), and every JSON answer, an error's included, passes through the masker
on its way out."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from autoresearch.plumbing.redact import redact_tree
from autoresearch.plumbing.surrogates import utf8


class MaskedJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        """starlette's JSON, masked, with a lone surrogate (a test id of an eval's rows) as its escape: starlette's
        own encoding raised on one, and the answer was a 500."""
        text = json.dumps(redact_tree(content), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return utf8(text)


def install(app: FastAPI) -> None:
    """Mask every answer of `app`: called before its routes are added, which take the default then."""
    app.router.default_response_class = MaskedJSONResponse
    app.add_exception_handler(HTTPException, _masked_error)


async def _masked_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return await http_exception_handler(request, HTTPException(exc.status_code, redact_tree(exc.detail), exc.headers))
