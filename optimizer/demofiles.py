"""The files of `autoresearch demo`: a support prompt, a deterministic eval, and recorded edits.

The eval checks the prompt for the rules each test needs, so every edit has a
known effect: two gains, one regression, one simplification that keeps the
score, and one edit that changes nothing the eval can see.
"""

from __future__ import annotations

PROMPT = """# Support assistant

You answer customer questions for Acme.
Always be polite.
Please remember that you should always try to be as helpful as you possibly can be.
"""

EVAL = '''"""Deterministic eval for the demo: each test needs some phrases in prompt.md."""
import json, sys
from pathlib import Path

TESTS = {
    "greeting": ["Greet the customer by name"],
    "refunds": ["Refunds within 30 days"],
    "escalation": ["Escalate legal questions"],
    "tone": ["polite"],
    "scope": ["Acme"],
}
prompt = Path("prompt.md").read_text()
run_dir = Path(sys.argv[1])
with open(run_dir / "index.jsonl", "w") as out:
    for test_id, phrases in TESTS.items():
        scores = [{"name": f"contains {p!r}", "type": "contains", "score": float(p in prompt)} for p in phrases]
        score = sum(s["score"] for s in scores) / len(scores)
        out.write(json.dumps({"test_id": test_id, "score": score, "scores": scores,
                              "execution_status": "ok" if score == 1 else "quality_failure"}) + "\\n")
'''

EDITS = [
    (
        "Add a rule to greet the customer by name",
        PROMPT.rstrip("\n") + "\nGreet the customer by name.\n",
    ),
    (
        "Replace the politeness rule with a terse style",
        PROMPT.replace("Always be polite.\n", "Be terse.\n") + "Greet the customer by name.\n",
    ),
    (
        "State the refund window",
        PROMPT.rstrip("\n") + "\nGreet the customer by name.\nRefunds within 30 days are always accepted.\n",
    ),
    (
        "Drop the filler sentence that no test needs",
        "# Support assistant\n\nYou answer customer questions for Acme.\nAlways be polite.\n"
        "Greet the customer by name.\nRefunds within 30 days are always accepted.\n",
    ),
    (
        "Reword the opening line",
        "# Support assistant\n\nYou answer questions from Acme customers.\nAlways be polite.\n"
        "Greet the customer by name.\nRefunds within 30 days are always accepted.\n",
    ),
]

CONFIG = """# autoresearch demo: a prompt, a deterministic eval, and recorded edits (no API key needed).
experiment: demo
artifact: prompt.md
eval:
  command: python3 evals/score.py {{run_dir}}
  timeout_s: 60
mutator:
  provider: replay
  file: edits/replay.yaml
stop:
  max_cycles: {cycles}  # the original's and one per recorded edit
  max_convergence: 3
"""


def files() -> dict[str, str]:
    """{relative path: text} of the whole demo repository."""
    replay = "\n".join(f"- summary: {summary!r}\n  content: v{i + 2}.md" for i, (summary, _) in enumerate(EDITS))
    tree = {
        "prompt.md": PROMPT,
        "evals/score.py": EVAL,
        "edits/replay.yaml": replay + "\n",
        # the run ends with the last edit's cycle: a cycle after it would be shown starting its mutation
        # (`cycle 7 mutate mutating`) before the replay found it had none, a cycle that never happens
        "autoresearch.yaml": CONFIG.format(cycles=len(EDITS) + 1),
    }
    tree.update({f"edits/v{i + 2}.md": text for i, (_, text) in enumerate(EDITS)})
    return tree
