"""Canned answers: the test id picks one."""

import sys

ANSWERS = {
    "ranges": "ANSWER-RANGES",
    "ranges-required": "ANSWER-REQ",
    "operators": "ANSWER-OPS",
    "code-aggregator": "a b",
    "llm-aggregator": "a b",
    "prompt-script": "ANSWER-SCRIPT",
    "failing-script": "x",
    "per-grader-target": "ANSWER-PANEL",
}
with open(sys.argv[3], "w") as out:
    out.write(ANSWERS.get(sys.argv[1], "no canned answer"))
