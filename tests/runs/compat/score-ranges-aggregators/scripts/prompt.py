"""A prompt script: prints the grader's template from the test it reads on stdin."""

import json
import sys

t = json.load(sys.stdin)
print(f"SCRIPTED answer={t['answer']} criteria={t['criteria']} flavour={t['config']['flavour']} then {{{{output}}}}")
