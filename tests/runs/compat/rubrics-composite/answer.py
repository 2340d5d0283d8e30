"""Canned answers: the test id picks one."""

import sys

ANSWERS = {
    "strings": "Paris is the capital.",
    "required-item": "ANSWER-REQUIRED",
    "missing-check": "ANSWER-MISSING",
    "bad-rubric-reply": "ANSWER-BAD",
    "threshold": "a b",
    "member-weights": "a b",
    "aggregator-weights": "a b",
    "member-negate": "a b",
    "member-skips": "a b",
    "no-aggregator": "a b",
    "unnamed-member": "a b",
    "min-score-met": "a b",
    "min-score-missed": "a b",
    "min-score-not-required": "a b",
    "required-at-suite-threshold": "a b",
    "half-at-suite-threshold": "a b",
    "1": "Paris, thank you.",
    "2": "Hello!",
}
with open(sys.argv[3], "w") as out:
    out.write(ANSWERS.get(sys.argv[1], "no canned answer"))
