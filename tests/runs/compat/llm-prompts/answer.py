"""Canned answers: the test id picks one."""

import sys

ANSWERS = {
    "bare-path": "ANSWER-BARE",
    "criteria-prompt": "The capital is Paris",
    "template-inline": "4",
    "file-template": "ANSWER-FILE",
    "unknown-variable": "ANSWER-UNKNOWN",
    "implicit-nonjson": "ANSWER-IMPLICIT",
    "explicit-nonjson": "ANSWER-EXPLICIT",
    "repaired": "REPAIR-ME",
    "out-of-range": "ANSWER-RANGE",
    "question-text": "ANSWER-QUESTION",
    "fenced": "ANSWER-FENCED",
}
with open(sys.argv[3], "w") as out:
    out.write(ANSWERS.get(sys.argv[1], "no canned answer"))
