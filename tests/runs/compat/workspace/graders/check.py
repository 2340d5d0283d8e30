"""Scores the fraction of checks (given as argv) that hold of the workspace the grader is told about."""

import json
import os
import sys

payload = json.load(sys.stdin)
workspace = payload.get("workspace_path")
changes = payload.get("file_changes") or ""


def read(name):
    path = os.path.join(workspace or "/nonexistent", name)
    return open(path).read() if os.path.isfile(path) else ""


checks = []
for check in sys.argv[1:]:
    kind, _, arg = check.partition(":")
    if kind == "env":
        ok = workspace is not None and os.environ.get("AGENTV_WORKSPACE_PATH") == workspace
    elif kind == "has":
        ok = os.path.exists(os.path.join(workspace or "/nonexistent", arg))
    elif kind == "lacks":
        ok = workspace is not None and not os.path.exists(os.path.join(workspace, arg))
    elif kind == "log":
        ok = arg in read("hooks.log")
    elif kind == "diff":
        ok = arg in changes
    elif kind == "nodiff":
        ok = arg not in changes
    elif kind == "output":
        ok = arg in (payload.get("output") or "")
    else:
        ok = False
    checks.append({"text": check, "passed": bool(ok)})
print(json.dumps({"score": sum(c["passed"] for c in checks) / len(checks), "assertions": checks}))
