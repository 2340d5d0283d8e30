"""Answers with the prompt it was given: the graders check the text AgentV wrote."""

import sys

prompt_file, output_file = sys.argv[1:]
with open(output_file, "w") as out:
    out.write("Answer: " + open(prompt_file).read())
