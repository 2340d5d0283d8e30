"""Eval trees in tmp dirs: an eval file, a targets.yaml and a CLI target script that answers from a table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ANSWER_SCRIPT = """\
import json, sys
answers = json.load(open(sys.argv[3]))
answer = answers.get(sys.argv[1], "no answer")
if isinstance(answer, list):
    answer = answer[int(sys.argv[2]) % len(answer)]
with open(sys.argv[4], "w") as f:
    f.write(answer if isinstance(answer, str) else json.dumps(answer))
"""


def write_tree(
    root: Path, tests: list[dict], answers: dict, suite: dict | None = None, targets: list[dict] | None = None
) -> Path:
    """root/evals/suite.eval.yaml + root/.agentv/targets.yaml (target `canned` answering `answers[test id]`)."""
    (root / "evals").mkdir(parents=True, exist_ok=True)
    (root / ".agentv").mkdir(exist_ok=True)
    (root / "answer.py").write_text(ANSWER_SCRIPT)
    (root / "answers.json").write_text(json.dumps(answers))
    command = f"{sys.executable} ../answer.py {{EVAL_ID}} {{ATTEMPT}} ../answers.json {{OUTPUT_FILE}}"
    default = [{"name": "canned", "provider": "cli", "command": command, "timeout_seconds": 30}]
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": targets or default}))
    body = {"execution": {"target": "canned"}, **(suite or {}), "tests": tests}
    path = root / "evals" / "suite.eval.yaml"
    path.write_text(yaml.safe_dump(body, sort_keys=False))
    return path


def canned_command() -> str:
    return f"{sys.executable} ../answer.py {{EVAL_ID}} {{ATTEMPT}} ../answers.json {{OUTPUT_FILE}}"
