"""Scores the fraction of AgentV's trace fields it finds in its stdin, as a code-grader sees a target's tool calls."""

import json
import sys

payload = json.load(sys.stdin)
trace = payload.get("trace") or {}
summary = payload.get("trace_summary") or {}
events = trace.get("events") or []
checks = [
    trace.get("event_count") == 4,
    trace.get("tool_calls") == {"Read": 2, "Grep": 1, "Edit": 1},
    trace.get("llm_call_count") == 2,
    summary.get("tool_durations") == {"Read": [5, 50], "Edit": [250]},
    [e["type"] for e in events].count("tool_call") == 4,
    any(m.get("tool_calls") for m in payload.get("messages") or []),
    payload.get("token_usage") == {"input": 100, "output": 40, "cached": 10},
    payload.get("cost_usd") == 0.25,
    payload.get("duration_ms") == 1500,
    payload.get("output") == "done",
]
print(
    json.dumps(
        {
            "score": sum(checks) / len(checks),
            "assertions": [{"text": f"check {i}", "passed": c} for i, c in enumerate(checks)],
        }
    )
)
