"""What a `cli` target wrote, read as AgentV 4.42.4's cli provider reads it (`parseOutputContent`).

The file is JSON only when JavaScript's `JSON.parse` would take it (no NaN or
Infinity) and it passes AgentV's schema: an object whose `output` (or legacy
`output_messages`) is a list of messages (`role`, optional `name`, `content`,
`tool_calls`, `start_time`, `end_time`, `duration_ms`, `metadata`), with
optional `text`, `token_usage: {input, output, cached?}`, `cost_usd` and
`duration_ms`. A key that is present must have the right type (`null` is not
"absent"); anything else, and an object with neither messages nor `text`, is
the answer as plain text with no measurements. Negative `cost_usd` and
`duration_ms` are dropped. The tool calls and measurements are what
`tool-trajectory`, `execution-metrics`, `token-usage`, `cost` and `latency`
grade. AgentV 5's schema adds `error` (text): the target's own failure,
beside an answer that is still graded (`Answer.task_error`; read for 5.x
files only, as 4.42.4's schema has no such field).
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

from autoresearch.plumbing import jsonlines
from autoresearch.runs.errors import StepFailed
from autoresearch.runs.js import js_string
from autoresearch.runs.targets import Answer

TOOL_STATUSES = {"ok", "error", "timeout", "cancelled", "unknown"}
CONTENT_TYPES = {"text", "image", "file"}
MAX_TOKENS = 10**9  # per answer, as autoresearch.providers.replies: what the budget counts, not what graders see
MAX_COST_USD = 1e6


class _Invalid(StepFailed):
    """The JSON does not pass AgentV's schema: the whole text is the answer (caught in this module, always)."""


def parse(text: str, agentv: int = 4) -> Answer:
    """The target's answer and what it reported about the run, read by the schema of that AgentV major."""
    try:
        value = jsonlines.strict(text)
        return _envelope(value, text, agentv)
    except (ValueError, _Invalid, RecursionError):
        return plain(text)


def plain(text: str) -> Answer:
    return Answer(text, messages=({"role": "assistant", "content": text},))


def _envelope(value: Any, text: str, agentv: int = 4) -> Answer:
    if not isinstance(value, dict):
        raise _Invalid
    error = _optional(value, "error", _string) if agentv >= 5 else None
    usage = _optional(value, "token_usage", _usage)
    cost = _optional(value, "cost_usd", _number)
    duration = _optional(value, "duration_ms", _number)
    outputs = {key: _optional(value, key, _messages) for key in ("output", "output_messages")}
    messages = outputs["output"] if outputs["output"] is not None else outputs["output_messages"]  # JavaScript's `??`
    cost = cost if cost is None or cost >= 0 else None
    duration = duration if duration is None or duration >= 0 else None
    if messages:
        return _answer(last_assistant_text(messages), tuple(messages), usage, cost, duration, error)
    if "text" in value:
        answer = value["text"] if isinstance(value["text"], str) else js_string(value["text"])
        return _answer(answer, ({"role": "assistant", "content": answer},), usage, cost, duration, error)
    return plain(text)


def _answer(
    text: str,
    messages: tuple[dict[str, Any], ...],
    usage: dict[str, float] | None,
    cost: float | None,
    duration: float | None,
    error: str | None = None,
) -> Answer:
    return Answer(
        text,
        int(_bounded(usage["input"], MAX_TOKENS)) if usage else 0,
        int(_bounded(usage["output"], MAX_TOKENS)) if usage else 0,
        _bounded(cost, MAX_COST_USD),
        messages=messages,
        token_usage=usage,
        reported_cost_usd=cost,
        reported_duration_ms=duration,
        task_error=error,
    )


def _bounded(value: float | None, limit: float) -> float:
    """What the budget counts: a reported amount from 0 to `limit`; anything else (absurd or absent) as 0."""
    return float(value) if value is not None and 0 <= value <= limit else 0.0


def _optional(obj: dict[str, Any], key: str, check: Callable[[Any], Any]) -> Any:
    return check(obj[key]) if key in obj else None


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Invalid
    return value


def _of(kind: type) -> Callable[[Any], Any]:
    """A check that a value is of one JSON kind (text, list, object)."""

    def check(value: Any) -> Any:
        if not isinstance(value, kind):
            raise _Invalid
        return value

    return check


_string, _list, _record = _of(str), _of(list), _of(dict)


def _usage(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        raise _Invalid
    usage = {"input": _number(value.get("input")), "output": _number(value.get("output"))}
    if "cached" in value:
        usage["cached"] = _number(value["cached"])
    return usage


def _messages(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise _Invalid
    return [_message(item) for item in value]


def _message(item: Any, any_content: bool = False) -> dict[str, Any]:
    """One message as AgentV keeps it: content only when it is text or content blocks (any content from a
    replay fixture), other fields checked."""
    if not isinstance(item, dict):
        raise _Invalid
    message: dict[str, Any] = {"role": _string(item.get("role"))}
    for key, check in (
        ("name", _string),
        ("start_time", _string),
        ("end_time", _string),
        ("duration_ms", _number),
        ("metadata", _record),
    ):
        if key in item:
            message[key] = check(item[key])
    if "tool_calls" in item:
        if not isinstance(item["tool_calls"], list):
            raise _Invalid
        message["tool_calls"] = [_tool_call(call) for call in item["tool_calls"]]
    content = item.get("content")
    if isinstance(content, str) or is_content_array(content) or (any_content and "content" in item):
        message["content"] = content
    return message


def _tool_call(item: Any) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise _Invalid
    call: dict[str, Any] = {"tool": _string(item.get("tool"))}
    for key in ("input", "output"):
        if key in item:
            call[key] = item[key]
    for key, check in (("id", _string), ("start_time", _string), ("end_time", _string), ("duration_ms", _number)):
        if key in item:
            call[key] = check(item[key])
    if "status" in item:
        if item["status"] not in TOOL_STATUSES:
            raise _Invalid
        call["status"] = item["status"]
    return call


def valid_record(value: dict[str, Any]) -> bool:
    """A replay fixture's output and measurements as AgentV's replay schema takes them: the cli schema's, with
    every number >= 0 and every role and tool name non-empty."""
    try:
        messages = [_message(m, any_content=True) for m in _list(value.get("output"))]
        usage = _optional(value, "token_usage", _usage) or {}
        numbers = [*usage.values(), *(_optional(value, k, _number) for k in ("cost_usd", "duration_ms") if k in value)]
    except _Invalid:
        return False
    calls = [call for m in messages for call in m.get("tool_calls", ())]
    numbers += [x.get("duration_ms", 0) for x in [*messages, *calls]]
    return all(n >= 0 for n in numbers) and all(m["role"] for m in messages) and all(c["tool"] for c in calls)


def recorded(record: dict[str, Any]) -> Answer:
    """A replay fixture's answer: its messages as recorded (content as is), with its measurements."""
    messages = tuple(_message(m, any_content=True) for m in record["output"])
    return _answer(
        last_assistant_text(messages),
        messages,
        record.get("token_usage"),
        record.get("cost_usd"),
        record.get("duration_ms"),
    )


def is_content_array(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(b, dict) and b.get("type") in CONTENT_TYPES for b in value)
    )


def last_assistant_text(messages: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> str:
    """AgentV's extractLastAssistantContent: the content of the last assistant message that has one."""
    for message in reversed(messages):
        if message.get("role") == "assistant" and "content" in message:
            content = message["content"]
            if isinstance(content, str):
                return content
            if is_content_array(content):
                return "\n".join(_block_text(b.get("text")) for b in content if b["type"] == "text")
            return json.dumps(content, separators=(",", ":"), ensure_ascii=False)
    return ""


def _block_text(value: Any) -> str:
    """A text block's text as JavaScript's join shows it (null and missing as empty)."""
    return "" if value is None else value if isinstance(value, str) else js_string(value)
