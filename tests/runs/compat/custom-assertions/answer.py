"""Canned answers: the test id picks one."""

import sys

ANSWERS = {"short": "Hi", "long": "Hello there, I am a helpful assistant", "overridden": "no match here"}
test_id, output_file = sys.argv[1:3]
with open(output_file, "w") as out:
    out.write(ANSWERS.get(test_id, "canned answer"))
