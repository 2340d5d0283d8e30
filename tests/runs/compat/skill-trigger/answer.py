"""Canned answers by {EVAL_ID} in AgentV's cli output format: the tool calls a skill-trigger grader looks at."""

import json
import sys


def reply(*calls):
    return {"output": [{"role": "assistant", "content": "done", "tool_calls": list(calls)}]}


ANSWERS = {
    "skill-call": reply(
        {"tool": "Grep", "input": {"pattern": "x"}}, {"tool": "Skill", "input": {"skill": "csv-analyzer"}}
    ),
    "skill-call-lowercase": reply({"tool": "skill", "input": {"skill": "my-csv-analyzer-v2"}}),
    "skill-call-other": reply({"tool": "Skill", "input": {"skill": "pdf-reader"}}),
    "read-file-path": reply({"tool": "Read", "input": {"file_path": "/w/.claude/skills/csv-analyzer/SKILL.md"}}),
    "read-path": reply({"tool": "READ", "input": {"path": "skills/csv-analyzer/formula.md"}}),
    "read-elsewhere": reply({"tool": "Read", "input": {"file_path": "docs/csv-analyzer.md"}}),
    "output-text": reply({"tool": "Bash", "input": "ls", "output": "found skills/csv-analyzer/SKILL.md"}),
    "output-json": reply({"tool": "Glob", "input": {}, "output": {"files": ["skills/csv-analyzer/SKILL.md"]}}),
    "string-input": reply({"tool": "Skill", "input": "csv-analyzer"}),
    "list-input": reply({"tool": "Skill", "input": {"skill": ["csv-analyzer", "x"]}}),
    "object-input": reply({"tool": "Skill", "input": {"skill": {"name": "csv-analyzer"}}}),
    "mixed-list-input": reply({"tool": "Skill", "input": {"skill": [1.0, True, None, "csv-analyzer-tool"]}}),
    "no-tools": "plain text, no tools",
    "negative-clean": reply({"tool": "Read", "input": {"file_path": "notes.md"}}),
    "negative-triggered": reply({"tool": "Skill", "input": {"skill": "csv-analyzer"}}),
    "negative-no-tools": "nothing",
}

if __name__ == "__main__":
    answer = ANSWERS.get(sys.argv[1], "unknown test")
    with open(sys.argv[3], "w", encoding="utf-8") as out:
        out.write(answer if isinstance(answer, str) else json.dumps(answer))
