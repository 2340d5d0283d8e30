"""Beside the API, the live view: the index, and the pages and run files of `trajectory.served`'s allow-list."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from autoresearch.optimizer.api.served import ServedHere
from autoresearch.trajectory import served as served_files
from autoresearch.trajectory import server

NOT_CACHED = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}  # pages are rewritten every cycle

router = APIRouter()


@router.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
def chart(request: Request, path: str, here: ServedHere) -> Response:
    """Every path the API does not answer: matched last, so it must be added last."""
    if path in ("", "index.html"):
        return _page(server.index_page(here.results_dir))
    found = served_files.locate(here.results_dir, request.scope.get("raw_path") or request.url.path.encode())
    if found is None:
        return PlainTextResponse("not found", status_code=404, headers=NOT_CACHED)
    if isinstance(found, served_files.Listing):
        return _page(server.listing_page(found))
    return Response(found.body, media_type=found.media_type, headers=NOT_CACHED)


def _page(html: str) -> Response:
    return Response(html, media_type="text/html; charset=utf-8", headers=NOT_CACHED)
