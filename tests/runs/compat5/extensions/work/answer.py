"""Runs in the workspace: answers with what the extension hooks left there."""

import sys
from pathlib import Path

test_id, output_file = sys.argv[1:]
found = [
    Path("before-all.txt").read_text() if Path("before-all.txt").is_file() else "no beforeAll",
    Path(f"each-{test_id}.txt").read_text() if Path(f"each-{test_id}.txt").is_file() else "no beforeEach",
    "skill staged" if Path(".agentv/agent-rules/skills/demo/SKILL.md").is_file() else "no skill",
]
Path(output_file).write_text(" | ".join(found))
