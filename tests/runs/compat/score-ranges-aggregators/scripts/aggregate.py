"""A composite's code aggregator: the mean of its members' scores, and a verdict of its own."""

import json
import sys

results = json.load(sys.stdin)["results"]
scores = [r["score"] for r in results.values()]
print(
    json.dumps(
        {
            "score": sum(scores) / len(scores),
            "verdict": "pass",
            "assertions": [
                {"text": f"{name}: {r['verdict']}", "passed": r["verdict"] == "pass"} for name, r in results.items()
            ],
        }
    )
)
