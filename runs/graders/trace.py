"""The trace summary AgentV 4.42.4 derives from a target's output messages (`computeTraceSummary`).

Tool calls are counted by name over every message's `tool_calls`; LLM calls
are the assistant messages; a call's duration is its `duration_ms`, else its
end time minus its start time. `execution-metrics` and `tool-trajectory`
read it, and a code-grader gets it as `trace`.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Iterable, cast

from autoresearch.runs.graders.base import Context

EXPLORATION_TOOLS = ("read", "grep", "glob", "search", "list", "Read", "Grep", "Glob", "WebSearch", "WebFetch")
"""AgentV's DEFAULT_EXPLORATION_TOOLS: the read-only tools `target_exploration_ratio` counts."""


def of(ctx: Context) -> dict[str, Any]:
    """The summary a grader sees: of the output messages, after a conversation turn's history (whose assistant
    turns AgentV counts as LLM calls there)."""
    return summary([*ctx.history, *ctx.messages])


def tool_calls(messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [call for message in messages for call in message.get("tool_calls", ())]


def summary(messages: Iterable[dict[str, Any]]) -> dict[str, Any]:
    messages = list(messages)
    counts: dict[str, int] = {}
    durations: dict[str, list[float]] = {}
    for call in tool_calls(messages):
        counts[call["tool"]] = counts.get(call["tool"], 0) + 1
        duration = call_duration(call)
        if duration is not None:
            durations.setdefault(call["tool"], []).append(duration)
    found = {
        "event_count": sum(counts.values()),
        "tool_calls": counts,
        "error_count": 0,
        "llm_call_count": sum(1 for m in messages if m.get("role") == "assistant"),
    }
    if durations:
        found["tool_durations"] = durations
    return found


def call_duration(call: dict[str, Any]) -> float | None:
    if "duration_ms" in call:
        return cast(float | None, call["duration_ms"])  # as the trace holds it (an int stays an int in the row)
    if "start_time" in call and "end_time" in call:
        return _epoch_ms(call["end_time"]) - _epoch_ms(call["start_time"])
    return None


def _epoch_ms(stamp: str) -> float:
    """An ISO timestamp in milliseconds; one JavaScript's Date cannot read is NaN, as there."""
    try:
        return datetime.fromisoformat(stamp).timestamp() * 1000
    except ValueError:
        return math.nan


def exploration_ratio(found: dict[str, Any]) -> float | None:
    if found["event_count"] == 0:
        return None
    return float(sum(found["tool_calls"].get(tool, 0) for tool in EXPLORATION_TOOLS) / found["event_count"])
