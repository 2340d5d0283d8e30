"""A grader behind a `cli` target: the score is a digest of exactly what it was given (the prompt, its
file, the test id and attempt, the arguments), so both tools score alike only if they send the same."""

import hashlib
import json
import sys

test_id, attempt, prompt_file, output_file = sys.argv[1:5]
if test_id == "healthcheck":
    sys.exit(0 if sys.argv[5:] == [""] and open(prompt_file).read() == "" else 7)
prompt = open(prompt_file).read()
given = json.dumps([test_id, attempt, prompt, sys.argv[5:]])
score = int(hashlib.sha256(given.encode()).hexdigest(), 16) % 1000 / 1000
mode = test_id.removeprefix("other-")
if mode == "stdout":
    sys.exit(print(json.dumps({"score": 1})))
if mode == "crash":
    sys.exit("judge crashed")
if mode == "garbage":
    reply = "not json at all"
elif mode == "envelope":
    reply = json.dumps({"text": json.dumps({"score": score, "assertions": [{"text": "ok", "passed": True}]})})
elif "rubric" in mode:
    ids = sorted(set(__import__("re").findall(r"\[(rubric-\d+)\]", prompt)))
    reply = json.dumps(
        {
            "checks": [{"id": i, "satisfied": n % 2 == 0, "reasoning": "r"} for n, i in enumerate(ids)],
            "overall_reasoning": str(score),
        }
    )
else:
    reply = (
        "```json\n" + json.dumps({"score": score, "assertions": [{"text": "graded", "passed": score > 0.5}]}) + "\n```"
    )
with open(output_file, "w") as out:
    out.write(reply)
