"""Text holding a lone surrogate, written anyway: to a file as JavaScript's JSON writes it, to a terminal as Node.

JSON may spell half of a UTF-16 pair alone (`"\\ud800"`), and AgentV's rows do: a JavaScript string is UTF-16,
and one cut between the halves of a pair (a target's output cut to a length, an error's message) keeps half.
Python's json reads it into a str that UTF-8 cannot encode, and a file name that is not UTF-8 reaches Python
the same way (as `\\udc80`-`\\udcff`). Such a test id, grader name or message raised UnicodeEncodeError
where a record, the digest or the chart was written: the decision's critical block among them.

The rule: a record stays UTF-8 JSON and the same string when read back, with each lone surrogate written as
its escape, as `JSON.stringify` writes one (so `compare --json` is `agentv compare --json` byte for byte); a
file of text other than JSON (the digest, the page) shows the same escape. What a terminal is shown has
U+FFFD in its place, as Node writes one to stdout (the compare table is AgentV's, byte for byte).
Readers of our records (pydantic's, msgspec's) refuse the escape that Python's json takes: `validate_json`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeVar

from autoresearch.plumbing import jsonlines

if TYPE_CHECKING:  # not imported at run time: the console's writer uses this module, and `status` starts fast
    from pydantic import BaseModel

_LONE = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")  # in JSON text: an escaped surrogate, paired or not
Model = TypeVar("Model", bound="BaseModel")


def utf8(text: str) -> bytes:
    """`text` as UTF-8, each lone surrogate as its JSON escape (free for text that holds none)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return escaped(text).encode("utf-8")


def escaped(text: str) -> str:
    """`text` with each lone surrogate written as its escape: JSON text (written with ensure_ascii=False) stays
    JSON, since such text holds one only inside a string, and is the same string read back."""
    return text if text.isascii() else _LONE.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


def replaced(text: str) -> str:
    """`text` with U+FFFD for each lone surrogate, as Node writes a string to a terminal or a pipe."""
    return text if text.isascii() else _LONE.sub("\ufffd", text)


def validate_json(model: type[Model], data: str | bytes) -> Model:
    """`model.model_validate_json(data)`, and also of JSON holding an escaped lone surrogate, which pydantic's
    parser refuses ("unexpected end of hex escape") and Python's json reads; a NaN or an infinity is refused
    on this second way (pydantic's parser reads them, and refuses them where the model says so)."""
    try:
        return model.model_validate_json(data)
    except ValueError as refused:  # pydantic's ValidationError
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        if not _ESCAPED.search(text):
            raise
        try:
            value = jsonlines.strict(text)
        except ValueError:
            raise refused from None
        return model.model_validate(value)
