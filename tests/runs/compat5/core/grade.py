"""A script grader: half marks when the answer quotes the question, nothing otherwise."""

import json
import sys

payload = json.load(sys.stdin)
answer = payload.get("output_text") or json.dumps(payload.get("output"))
score = 0.5 if "capital" in answer else 0.0
print(json.dumps({"score": score, "assertions": [{"text": "quotes the question", "passed": score > 0}]}))
