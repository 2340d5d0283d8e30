"""A lifecycle hook: records that it ran (a file in the workspace named by its stdin) and fails when told to."""

import json
import os
import sys

name = sys.argv[1]
context = json.load(sys.stdin)
workspace = context["workspace_path"]
assert sys.argv[2] == workspace, (sys.argv[2], workspace)  # {{workspace_path}} is filled in the argv too
with open(os.path.join(workspace, "hooks.log"), "a") as log:
    log.write(
        f"{name} {context['test_id']} input={context['case_input']!r} metadata={json.dumps(context['case_metadata'])} cwd={os.path.basename(os.getcwd())}\n"
    )
if "fail" in sys.argv[3:]:
    print(f"{name} refused", file=sys.stderr)
    sys.exit(3)
