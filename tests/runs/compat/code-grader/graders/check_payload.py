"""Scores the fraction of AgentV's stdin fields that are present and shaped as AgentV sends them; prints indented JSON."""

import json
import sys

t = json.load(sys.stdin)
checks = {
    "criteria": t.get("criteria") == "It echoes",
    "expected_output": t.get("expected_output") == [{"role": "assistant", "content": "hello there"}],
    "output": t.get("output") == "hello there",
    "input_files": [p.rsplit("/", 1)[-1] for p in t.get("input_files", [])] == ["notes.txt"]
    and t["input_files"][0].startswith("/"),
    "messages": [m["role"] for m in t.get("messages", [])] == ["system", "user", "assistant"]
    and t["messages"][-1]["content"] == "hello there",
    "messages-file": t["messages"][1]["content"].startswith('Summarize this\n<file: path="/')
    and t["messages"][1]["content"].endswith('notes.txt">'),
    "trace": isinstance(t.get("trace"), dict)
    and t["trace"].get("messages") == t.get("messages")
    and t["trace"].get("llm_call_count") == 1,
    "config": t.get("config") == {"max_score": 3, "extra_flag": True, "limit": 2},
    "input": t["input"][0] == {"role": "system", "content": "Be terse."}
    and t["input"][1]["content"][1]["type"] == "file"
    and t["input"][1]["content"][1]["value"] == "notes.txt"
    and t["input"][1]["content"][1]["text"] == "hello\n"
    and t["input"][1]["content"][1]["resolved_path"].endswith("/notes.txt"),
    "metadata": t.get("metadata") == {"some_key": 1, "owner": "qa"},
    "usage": t.get("token_usage") is None and t.get("cost_usd") is None,
}
print(
    json.dumps(
        {
            "score": sum(checks.values()) / len(checks),
            "assertions": [{"text": name, "passed": ok} for name, ok in checks.items()],
        },
        indent=2,
    )
)
