"""Canned answers by {EVAL_ID}: tool calls and measurements in AgentV's cli output format, hostile files, turns."""

import json
import sys

CALLS = [
    {"tool": "Read", "input": {"path": "a.py"}, "duration_ms": 5},
    {"tool": "Grep", "input": {"pattern": "x", "opts": {"case": True}}},
    {
        "tool": "Edit",
        "input": {"path": "a.py", "text": "y"},
        "start_time": "2026-01-01T00:00:00.000Z",
        "end_time": "2026-01-01T00:00:00.250Z",
    },
    {"tool": "Read", "input": {"path": "b.py"}, "duration_ms": 50},
]
AGENT = {
    "output": [
        {"role": "assistant", "content": "looking", "tool_calls": CALLS[:2]},
        {"role": "tool", "content": "found"},
        {"role": "assistant", "content": [{"type": "text", "text": "done"}], "tool_calls": CALLS[2:]},
    ],
    "token_usage": {"input": 100, "output": 40, "cached": 10},
    "cost_usd": 0.25,
    "duration_ms": 1500,
}
ANSWERS = {
    "agent": AGENT,
    "no-tools": "plain text, no tools",
    "legacy": {
        "output_messages": [
            {"role": "assistant", "content": "legacy", "tool_calls": [{"tool": "Bash", "input": "ls -la"}]}
        ]
    },
    "bad-status": {
        "output": [{"role": "assistant", "content": "x", "tool_calls": [{"tool": "Read", "status": "weird"}]}]
    },
    "null-input": {
        "output": [
            {
                "role": "assistant",
                "content": "x",
                "tool_calls": [{"tool": "Read", "input": None}, {"tool": "Read", "input": "str"}],
            }
        ]
    },
    "not-json": '{"output": [{"role": "assistant", "content": "x", "tool_calls": [{"tool": "Read"}]}',
    "nan": '{"output": [{"role": "assistant", "content": "x", "tool_calls": [{"tool": "Read", "duration_ms": NaN}]}]}',
    "huge": {
        "output": [
            {
                "role": "assistant",
                "content": "big",
                "tool_calls": [{"tool": f"T{i % 7}", "input": {"i": i}} for i in range(3000)],
            }
        ]
    },
    "chat/turn-1": "ANSWER-ONE fifteen percent is 30",
    "chat/turn-2": "ANSWER-TWO double is 60",
    "chat/turn-3": "ANSWER-THREE you asked about 15% and 200",
    "worst/turn-1": "ANSWER-PARIS Paris",
    "worst/turn-2": "ANSWER-FRANCE it is in France",
    "stop/turn-1": "ANSWER-FOUR 4",
    "stop/turn-2": "ANSWER-TWELVE 12",
    "mixed/turn-1": "def add(a, b): return a + b",
    "mixed/turn-2": "def add(a: int, b: int) -> int: return a + b",
    "whole/turn-1": "ANSWER-WARM try Cancun",
    "whole/turn-2": "ANSWER-BEACH Cancun beaches",
    "tools-turn/turn-1": AGENT,
    "tools-turn/turn-2": "ANSWER-PLAIN",
}
test_id, prompt_file, output_file = sys.argv[1:4]
answer = ANSWERS.get(test_id, "ECHO " + open(prompt_file).read())
with open(output_file, "w") as out:
    out.write(answer if isinstance(answer, str) else json.dumps(answer))
