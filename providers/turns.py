"""Protocol-neutral pieces of a tool-use conversation; each wire module translates them to its API."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from autoresearch.plumbing.jsontypes import JSONObject


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: JSONObject  # a JSON schema of the arguments object


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: JSONObject | None  # None when the model's arguments were not a JSON object
    raw: Any = None  # what the API sent, echoed back verbatim in the history
    problem: str | None = None  # why `arguments` is None

    @classmethod
    def from_json(cls, id: str, name: str, text: str | None) -> ToolCall:
        """A call whose arguments arrive as a JSON string (OpenAI); bad JSON becomes a `problem`, not an exception."""
        try:
            value = json.loads(text or "{}")
        except json.JSONDecodeError as exc:
            return cls(id, name, None, text, f"arguments are not valid JSON ({exc.msg} at char {exc.pos})")
        except RecursionError:  # the decoder's answer to arrays nested thousands deep
            return cls(id, name, None, text, "arguments are JSON nested too deeply")
        except ValueError as exc:  # a number of more than 4,300 digits
            return cls(id, name, None, text, f"arguments are not JSON that can be read ({str(exc).split(':')[0]})")
        if not isinstance(value, dict):
            return cls(id, name, None, text, "arguments must be a JSON object")
        return cls(id, name, value, text)


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False


@dataclass
class Turn:
    """One model reply: its text, the tools it called, and what it cost."""

    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0


@dataclass(frozen=True)
class Reply:
    """A single-turn answer: a provider's `complete`, a target's answer to a test, a grader's LLM verdict."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
