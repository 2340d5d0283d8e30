"""Echoes what the target was given: the test id, the {FILES} list, then the prompt text."""

import sys

test_id, prompt_file, output_file, *files = sys.argv[1:]
prompt = open(prompt_file, encoding="utf-8").read()
with open(output_file, "w", encoding="utf-8") as out:
    out.write(f"id={test_id}\nfiles={' '.join(files)}\n{prompt}")
