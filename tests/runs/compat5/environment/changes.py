"""A script grader: full marks when the file changes show the answer's log file and not the setup's."""

import json
import sys

changes = json.load(sys.stdin).get("file_changes") or ""
passed = "answer-" in changes and "ready.txt" not in changes
print(json.dumps({"score": 1.0 if passed else 0.0, "assertions": [{"text": "file changes", "passed": passed}]}))
