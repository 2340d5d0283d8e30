"""Text cut to a length for one line of a record, a log or a page: the start kept, the cut shown."""

from __future__ import annotations


def cut(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its start and an ellipsis, `limit` characters in all."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
