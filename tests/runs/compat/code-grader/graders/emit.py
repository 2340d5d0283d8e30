"""Prints what the test's `config.mode` asks for, to exercise how AgentV reads a grader's output and exit code."""

import json
import sys

mode = json.load(sys.stdin)["config"]["mode"]
if mode == "plain-pass":
    print("all good")
elif mode == "plain-fail":
    print("not good")
    sys.exit(1)
elif mode == "silent-fail":
    sys.exit(3)
elif mode == "stderr-crash":
    sys.stderr.write("Traceback: boom\n")
    sys.exit(2)
elif mode == "json-then-fail":
    print(json.dumps({"score": 1}))
    sys.exit(1)
elif mode == "assertions-only":
    print(
        json.dumps(
            {
                "assertions": [
                    {"text": "a", "passed": True},
                    {"text": "b", "passed": False},
                    {"text": "c", "passed": True},
                    {"nope": 1},
                ]
            }
        )
    )
elif mode == "over-one":
    print(json.dumps({"score": 1.5, "details": {"k": 1}}))
elif mode == "scalar":
    print("0.9")
elif mode == "array":
    print(json.dumps([{"score": 1}]))
elif mode == "trailing-text":
    print(json.dumps({"score": 1}))
    print("done")
