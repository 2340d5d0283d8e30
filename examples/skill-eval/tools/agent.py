"""A stand-in for a coding agent, so the example runs offline: it answers with the skill's example block.

An agent that follows a skill tends to copy its example's shape; this one copies it exactly, which is enough
to show the loop improving SKILL.md. Point the `agent` target in .agentv/targets.yaml at your real agent
(`claude -p`, `codex exec`, ...) to optimize the skill for it.
"""

import re
import sys
from pathlib import Path

skill, output = Path(sys.argv[1]).read_text(encoding="utf-8"), Path(sys.argv[2])
example = re.search(r"## Example\s*```\n(.*?)```", skill, re.DOTALL)
output.write_text(example.group(1) if example else "", encoding="utf-8")
