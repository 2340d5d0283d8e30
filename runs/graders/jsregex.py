"""JavaScript regular expressions run with Python's `re`, with JavaScript's meaning.

AgentV's `regex` grader is `new RegExp(value, flags).test(output)`. The
differences that change results: without `m`, `$` matches only at the very
end (Python's `$` also matches before a trailing newline); `\\d` and `\\w` are
ASCII-only; named groups are `(?<name>...)`.
"""

from __future__ import annotations

import re

FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}
IGNORED_FLAGS = set("guy")
CLASS_ESCAPES = {"d": "0-9", "w": "A-Za-z0-9_"}
OUTSIDE_ESCAPES = {"d": "[0-9]", "w": "[A-Za-z0-9_]", "D": "[^0-9]", "W": "[^A-Za-z0-9_]"}


def compile_js(pattern: str, flags: str = "") -> re.Pattern[str]:
    """Compile `pattern` as JavaScript would read it; raise `re.error` (or ValueError for a bad flag)."""
    py_flags = 0
    for flag in flags:
        if flag in FLAGS:
            py_flags |= FLAGS[flag]
        elif flag not in IGNORED_FLAGS:
            raise ValueError(f"unknown regex flag {flag!r}")
    return re.compile(translate(pattern, multiline="m" in flags), py_flags)


def translate(pattern: str, multiline: bool) -> str:
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            out.append(_escape(pattern[i + 1], in_class))
            i += 2
            continue
        if in_class:
            in_class = char != "]"
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
        elif char == "$" and not multiline:
            out.append(r"(?!\n)\Z")
        elif pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _escape(char: str, in_class: bool) -> str:
    if in_class and char in CLASS_ESCAPES:
        return CLASS_ESCAPES[char]
    if not in_class and char in OUTSIDE_ESCAPES:
        return OUTSIDE_ESCAPES[char]
    return "\\" + char
