"""A cli agent whose answer shows skill use in its tool calls (which AgentV 5 does not read for a cli target)."""

import json
import sys

test_id, output_file = sys.argv[1:]
calls = [
    {"tool": "Skill", "input": {"skill": "csv-analyzer"}},
    {"tool": "Read", "input": {"file_path": "/repo/.agents/skills/acme-deploy/SKILL.md"}},
]
with open(output_file, "w") as out:
    json.dump({"output": [{"role": "assistant", "content": "used skills", "tool_calls": calls}]}, out)
