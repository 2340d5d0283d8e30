"""Date comparison for `field-accuracy` (`match: date`): same calendar day, formats as AgentV guesses them."""

from __future__ import annotations

import re
from datetime import date, datetime

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            "jan january",
            "feb february",
            "mar march",
            "apr april",
            "may",
            "jun june",
            "jul july",
            "aug august",
            "sep sept september",
            "oct october",
            "nov november",
            "dec december",
        ]
    )
    for name in names.split()
}


def same_day(a: str, b: str, formats: list[str] | None) -> bool:
    first, second = parse_date(a, formats), parse_date(b, formats)
    return first is not None and first == second


def parse_date(text: str, formats: list[str] | None) -> date | None:
    text = text.strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).date()
    except ValueError:
        pass
    named = re.fullmatch(r"(\d{1,2})-([A-Za-z]{3,9})-(\d{4})", text)
    if named and named.group(2).lower() in MONTHS:
        return _safe(int(named.group(3)), MONTHS[named.group(2).lower()], int(named.group(1)))
    numeric = re.fullmatch(r"(\d{1,2})[/-](\d{1,2})[/-](\d{4})", text)
    if not numeric:
        return None
    first, second, year = (int(g) for g in numeric.groups())
    fmts = formats or []
    us = any("MM/DD" in f or "MM-DD" in f for f in fmts)
    eu = any("DD/MM" in f or "DD-MM" in f for f in fmts)
    if eu and not us or (not us and first > 12 and second <= 12):
        return _safe(year, second, first)
    return _safe(year, first, second)


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None
