"""JavaScript's text for JSON values, where AgentV's output depends on it (a number in a message, `String(x)`)."""

from __future__ import annotations

from typing import Any


def js_string(value: Any) -> str:
    """JavaScript's String(value) for JSON values: arrays joined by commas, objects as [object Object]."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"


def js_number(value: float) -> str:
    """A number as JavaScript prints it: integral values without `.0`, exponents as `1e+21` / `1e-7`."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**21:
        return str(value)
    if float(value).is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(float(value))
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        text = f"{mantissa.removesuffix('.0')}e{sign}{int(exponent.lstrip('+-'))}"
    return text
