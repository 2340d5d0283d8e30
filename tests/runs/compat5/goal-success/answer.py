"""Canned agent answers by {EVAL_ID}: tool calls in AgentV's cli output format, or plain text."""

import json
import sys

AGENT = {
    "output": [
        {
            "role": "assistant",
            "content": "looking",
            "tool_calls": [
                {"tool": "Read", "input": {"path": "src/config.ts"}, "output": "timeout = 1000"},
                {"tool": "exec_command", "input": {"cmd": "npm test --silent"}},
            ],
        },
        {
            "role": "assistant",
            "content": "done",
            "tool_calls": [{"tool": "Edit", "input": {"path": "src/config.ts", "old": "1000", "new": "5000"}}],
        },
    ]
}
ANSWERS = {"agent": AGENT, "plain": "plain text, no tools"}

test_id, output_file = sys.argv[1:]
answer = ANSWERS[test_id.split("-")[0]]
with open(output_file, "w") as out:
    out.write(answer if isinstance(answer, str) else json.dumps(answer))
