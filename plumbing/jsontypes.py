"""The one name for JSON where it crosses our edge: an API's reply, a coding agent's report, state.json read
back, the control API's answers.

Its values are `Any` on purpose, and only here: they are checked where they are read (`providers/replies.py`
for the LLM APIs), or are what `status --json` and the API print.
"""

from __future__ import annotations

from typing import Any

JSONObject = dict[str, Any]
