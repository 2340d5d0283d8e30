"""A docker environment's setup, run in the container before each test: checks what AgentV 5 hands it on stdin."""

import json
import os
import sys
from pathlib import Path

given = json.load(sys.stdin)["environment"]
assert given["type"] == "docker" and given["workdir"] == "/work", given
assert os.environ["AGENTV_ENVIRONMENT_WORKDIR"] == "/work"
Path("ready.txt").write_text(f"{os.environ['GREETING']}-from-{sys.argv[1]}")
print(f"setup {sys.argv[1]} ran")
if len(sys.argv) > 2:
    sys.exit(int(sys.argv[2]))
