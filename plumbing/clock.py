"""Timestamps as every file of the project writes them: ISO 8601, UTC, to the second, with a `Z`.

Its own module, free of pydantic, so the lock file (read by the fast `status`) can use it too.
"""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
