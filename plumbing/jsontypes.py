"""The one name for JSON as it comes in (an API's reply, a coding agent's report, a file of results).

Its values are `Any` on purpose, and only here: they are checked where they are read (`providers/replies.py`
for the LLM APIs), and nothing of ours writes them.
"""

from __future__ import annotations

from typing import Any

JSONObject = dict[str, Any]
