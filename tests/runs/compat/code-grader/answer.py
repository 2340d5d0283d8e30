"""Canned answers: the test id picks one; an unknown id answers with the prompt it was given."""

import sys

ANSWERS = {
    "payload": "hello there",
    "exit-codes": "fine",
    "protocol": "fine",
    "long-output": "x" * 60000,
}
test_id, prompt_file, output_file = sys.argv[1:4]
with open(output_file, "w") as out:
    out.write(ANSWERS.get(test_id) or open(prompt_file).read())
