"""A cli target that fails as its first argument says; `flaky` fails only on attempt 0 (AgentV 5 never retries);
the `*-error` modes answer with an `error` beside the answer (a string, a number, blanks)."""

import json
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
ERRORS = {"task-error": " it broke half way ", "odd-error": 5, "blank-error": "  "}
if mode in ERRORS:
    with open(output, "w") as f:
        json.dump({"output": [{"role": "assistant", "content": "partial yes"}], "error": ERRORS[mode]}, f)
if mode in ("flaky", "slow"):
    with open(output, "w") as f:
        f.write("yes")
