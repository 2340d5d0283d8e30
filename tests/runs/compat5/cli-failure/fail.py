"""A cli target that fails as its first argument says; `flaky` fails only on attempt 0 (AgentV 5 never retries)."""

import sys
import time

mode, attempt, output = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if mode == "stderr":
    sys.exit("boom on stderr")
if mode == "stdout":
    print("printed before failing")
    sys.exit(2)
if mode == "silent":
    sys.exit(3)
if mode == "flaky" and attempt == 0:
    sys.exit(f"attempt {attempt}: not yet")
if mode == "slow":
    time.sleep(10)
if mode in ("flaky", "slow"):
    with open(output, "w") as f:
        f.write("yes")
