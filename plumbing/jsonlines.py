"""The lines of JSON-lines text (result rows, recorded replies, a CLI's events), ended where JSON ends them.

`str.splitlines` also ends a line at U+2028, U+2029 and U+0085 (and at a few control characters). JSON escapes
none of those three inside a string, and JavaScript's `JSON.stringify` writes them raw: a row whose output quotes
one was cut in two, each half invalid JSON. A line ends here at "\\n", "\\r\\n" or "\\r" alone, the line ends that
reading in text mode (universal newlines) gives; a raw "\\r" cannot be inside a JSON value, so no row is cut at one.
"""

from __future__ import annotations

import re

_END = re.compile(r"\r\n?|\n")


def lines(text: str) -> list[str]:
    """`text`'s lines without their ends; blank ones kept (the last, after a final line end, is "")."""
    return _END.split(text) if "\r" in text else text.split("\n")
