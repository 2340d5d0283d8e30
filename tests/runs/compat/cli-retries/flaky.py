"""A command that fails while {ATTEMPT} (AgentV's retry count) is below FAILS, then answers "yes"."""

import sys

attempt, fails, output = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
if attempt < fails:
    sys.exit(f"attempt {attempt}: not yet")
with open(output, "w") as f:
    f.write("yes")
