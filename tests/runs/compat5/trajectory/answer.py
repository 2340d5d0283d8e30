"""Canned agent answers by {EVAL_ID}: tool calls in AgentV's cli output format (a command tool, start times
that reorder the calls, JSON given as text, booleans and numbers in the args; named and reasoning messages,
calls with an output, a whole transcript)."""

import json
import sys

AGENT = {
    "output": [
        {
            "role": "assistant",
            "content": "looking",
            "tool_calls": [
                {"tool": "Read", "input": {"path": "package.json", "limit": 100}},
                {"tool": "Grep", "input": '{"pattern": "timeout", "case": true}'},
                {"tool": "exec_command", "input": {"cmd": "npm test --silent"}},
            ],
        },
        {"role": "tool", "content": "found"},
        {
            "role": "assistant",
            "content": "done",
            "tool_calls": [
                {"tool": "Edit", "input": {"path": "src/config.ts", "old": "1000", "new": "5000", "count": 1}},
                {"tool": "Read", "input": {"path": "src/config.ts"}},
                {"tool": "mcp__files__list", "input": {"dir": ["src", "test"]}},
            ],
        },
    ]
}
TIMED = {
    "output": [
        {
            "role": "assistant",
            "content": "timed",
            "tool_calls": [
                {"tool": "Edit", "input": {"path": "a.ts"}, "start_time": "2026-01-01T00:00:02.000Z"},
                {"tool": "Read", "input": {"path": "a.ts"}, "start_time": "2026-01-01T00:00:01.000Z"},
                {"tool": "Write", "input": "not json"},
            ],
        }
    ]
}
NAMED = {
    "output": [
        {"role": "assistant", "name": "planner", "metadata": {"codex.item.type": "reasoning"}, "content": "thinking"},
        {
            "role": "assistant",
            "content": "ok",
            "tool_calls": [
                {"tool": "search", "input": {"q": "x"}, "output": "found"},
                {"tool": "shell", "input": {"command": ["ls", "-la"]}, "output": None},
            ],
        },
    ]
}
TRANSCRIPT = {"output": [{"role": "user", "content": "go"}, {"role": "assistant", "content": "done"}]}
ANSWERS = {
    "agent": AGENT,
    "timed": TIMED,
    "plain": "plain text, no tools",
    "named": NAMED,
    "transcript": TRANSCRIPT,
}

test_id, output_file = sys.argv[1:]
answer = ANSWERS[test_id.split("-")[0]]
with open(output_file, "w") as out:
    out.write(answer if isinstance(answer, str) else json.dumps(answer))
