"""A host environment's setup: checks what AgentV 5 hands it, then leaves ready.txt in the workdir."""

import json
import os
import sys
from pathlib import Path

given = json.load(sys.stdin)["environment"]
workdir = Path(os.environ["AGENTV_ENVIRONMENT_WORKDIR"])
assert given == {"type": "host", "workdir": str(workdir)}, given
assert Path.cwd() == workdir.parent, Path.cwd()
(workdir / "ready.txt").write_text(f"{os.environ['GREETING']} from {sys.argv[1]}")
if len(sys.argv) > 2:
    sys.exit(int(sys.argv[2]))
