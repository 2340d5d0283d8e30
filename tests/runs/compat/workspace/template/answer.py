"""The canned agent: it runs in its working directory (the workspace), edits files there and answers with what it saw."""

import os
import sys

test_id, output_file = sys.argv[1:3]
seen = sorted(os.listdir("."))
with open(f"made-by-{test_id}.txt", "w") as out:
    out.write(f"written by {test_id}\n")
if os.path.exists("src/app.txt"):
    with open("src/app.txt", "a") as out:
        out.write(f"edited by {test_id}\n")
if os.path.exists("obsolete.log"):
    os.remove("obsolete.log")
with open(output_file, "w") as out:
    out.write("saw: " + ",".join(seen))
