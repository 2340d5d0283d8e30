"""Text cut to a length for one line of a record, a log or a page: the start kept, the cut shown; and text
made inert for a terminal."""

from __future__ import annotations

import re

# what a terminal acts on rather than shows: ESC starts a sequence that can clear it or set the clipboard (OSC 52),
# a carriage return writes over the line; newline and tab stay
_ACTED_ON = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def cut(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its start and an ellipsis, `limit` characters in all."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def inert(text: str) -> str:
    """`text` with each control character a terminal would act on written as `\\xNN`: for what quotes an eval's
    or a mutator's output (an error's message) on the console."""
    return _ACTED_ON.sub(lambda found: f"\\x{ord(found[0]):02x}", text)
