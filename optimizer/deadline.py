"""Turning `stop.until` and `stop.max_hours` into one deadline, in epoch seconds."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from autoresearch.plumbing.errors import InvalidInput

CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


def deadline(until: str | None, max_hours: float, now: datetime) -> datetime | None:
    """The earlier of `until` (a local `HH:MM`, the next one to come, or an ISO time) and now + max_hours."""
    candidates = []
    if until:
        candidates.append(_parse_until(until, now))
    if max_hours:
        candidates.append(now + timedelta(hours=max_hours))
    return min(candidates) if candidates else None


def _parse_until(until: str, now: datetime) -> datetime:
    match = CLOCK.match(until.strip())
    if match:
        hour, minute = int(match.group(1)), int(match.group(2))
        if hour > 23 or minute > 59:
            raise InvalidInput(f"field 'stop.until': {until!r} is not a time of day")
        at = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        return at if at > now else at + timedelta(days=1)
    try:
        at = datetime.fromisoformat(until)
    except ValueError:
        raise InvalidInput(f"field 'stop.until': {until!r} is neither HH:MM nor an ISO time") from None
    return at if at.tzinfo else at.astimezone()
