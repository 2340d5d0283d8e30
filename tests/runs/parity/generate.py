"""A generated corpus: many tests of random deterministic graders on canned answers, from a fixed seed.

Answers and grader values are drawn from one small vocabulary, so every
grader passes on some tests and fails on others; weights, `negate`,
`required` with `min_score`, suite-level assertions and `skip_defaults`
mix the scores the way real files do.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import yaml

WORDS = ["alpha", "Beta", "gamma", "DELTA", "refund", "Paris", "42", "ok", "error", "hello world"]
ANSWER = """\
import json, sys
answers = json.load(open(sys.argv[2]))
open(sys.argv[3], "w").write(answers.get(sys.argv[1], "no answer"))
"""


def _answer(rng: random.Random) -> str:
    shape = rng.choice(["words", "json", "padded"])
    words = " ".join(rng.sample(WORDS, rng.randint(1, 4)))
    if shape == "json":
        return json.dumps({"status": rng.choice(["ok", "error"]), "count": rng.randint(0, 5)})
    return f"  {words}\n" if shape == "padded" else words


def _grader(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(
        [
            "contains",
            "icontains",
            "equals",
            "starts-with",
            "ends-with",
            "regex",
            "contains-any",
            "contains-all",
            "icontains-any",
            "is-json",
        ]
    )
    grader: dict[str, Any] = {"type": kind}
    if kind in ("contains-any", "contains-all", "icontains-any"):
        grader["value"] = rng.sample(WORDS, 2)
    elif kind == "regex":
        grader["value"] = rng.choice([r"^\w+", r"\d+", r"(?:ok|error)", r"^  ", r"world$"])
    elif kind != "is-json":
        grader["value"] = rng.choice(WORDS)
    if rng.random() < 0.3:
        grader["weight"] = rng.choice([0.5, 2, 3])
    if rng.random() < 0.15:
        grader["negate"] = True
    if rng.random() < 0.1:
        grader["required"] = True
        grader["min_score"] = rng.choice([0.5, 1])
    return grader


def write_corpus(root: Path, seed: int = 14, tests: int = 40) -> Path:
    """root/generated.eval.yaml with its canned-answer target; returns the eval file."""
    rng = random.Random(seed)
    answers, cases = {}, []
    for index in range(tests):
        test_id = f"gen-{index:03d}"
        answers[test_id] = _answer(rng)
        case: dict[str, Any] = {
            "id": test_id,
            "input": f"question {index}",
            "assertions": [_grader(rng) for _ in range(rng.randint(1, 4))],
        }
        if rng.random() < 0.2:
            case["execution"] = {"skip_defaults": True}
        cases.append(case)
    (root / ".agentv").mkdir(parents=True, exist_ok=True)
    (root / "answer.py").write_text(ANSWER)
    (root / "answers.json").write_text(json.dumps(answers))
    target = {
        "name": "canned",
        "provider": "cli",
        "command": f"{sys.executable} answer.py {{EVAL_ID}} answers.json {{OUTPUT_FILE}}",
    }
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": [target]}))
    suite = {
        "name": "generated",
        "execution": {"target": "canned"},
        "assertions": [{"type": "contains", "value": "o"}],
        "tests": cases,
    }
    path = root / "generated.eval.yaml"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    return path
