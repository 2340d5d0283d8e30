"""1 when the cloned library is at main's parent (its first version), 0 otherwise."""

import json
import os
import sys

payload = json.load(sys.stdin)
text = open(os.path.join(payload["workspace_path"], "vendor", "lib", "lib.txt")).read()
print(
    json.dumps(
        {
            "score": 1.0 if text == "lib v1\n" else 0.0,
            "assertions": [{"text": text.strip(), "passed": text == "lib v1\n"}],
        }
    )
)
