"""Canned answers: the test id picks one."""

import sys

test_id, output_file = sys.argv[1:3]
with open(output_file, "w") as out:
    out.write({"envelope": "The answer is {OUTPUT_FILE} and 4"}.get(test_id, f"canned answer for {test_id}"))
