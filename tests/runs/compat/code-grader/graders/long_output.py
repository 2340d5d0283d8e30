"""A long answer reaches the grader as a file (`output_path`, `output` null), as AgentV passes one over 50,000 characters."""

import json
import sys

t = json.load(sys.stdin)
path = t.get("output_path")
ok = t.get("output") is None and path is not None and json.load(open(path)) == "x" * 60000
print(json.dumps({"score": 1 if ok else 0}))
