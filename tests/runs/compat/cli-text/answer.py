"""Answers with the prompt it was given, then the base names of {FILES}: the graders check the text AgentV wrote."""

import os
import sys

prompt_file, output_file, *files = sys.argv[1:]
with open(output_file, "w") as out:
    out.write(open(prompt_file).read() + "\nFILES:" + ",".join(os.path.basename(f) for f in files))
