"""The lines of JSON-lines text (result rows, recorded replies, a CLI's events), ended where JSON ends them; and
JSON read as strict readers read it.

`str.splitlines` also ends a line at U+2028, U+2029 and U+0085 (and at a few control characters). JSON escapes
none of those three inside a string, and JavaScript's `JSON.stringify` writes them raw: a row whose output quotes
one was cut in two, each half invalid JSON. A line ends here at "\\n", "\\r\\n" or "\\r" alone, the line ends that
reading in text mode (universal newlines) gives; a raw "\\r" cannot be inside a JSON value, so no row is cut at one.
"""

from __future__ import annotations

import json
import re
from typing import Any

_END = re.compile(r"\r\n?|\n")


def lines(text: str) -> list[str]:
    """`text`'s lines without their ends; blank ones kept (the last, after a final line end, is "")."""
    return _END.split(text) if "\r" in text else text.split("\n")


def strict(text: str | bytes) -> Any:
    """`json.loads(text)` with NaN and the infinities refused (ValueError), as jq and JavaScript's JSON.parse
    refuse them: Python's json reads them, and what read them printed them on."""
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")
