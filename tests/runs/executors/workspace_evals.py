"""Built-in evals with AgentV workspaces, for comparing an executor's rows with the local ones (cluster.py on a
real Ray cluster, test_workspaces.py in this process).

A `cli` agent, copied into each workspace from the template, reports what its workspace held when it ran
(`ready.txt` from before_each, the lines before_all wrote to `setup.txt`, the `made-by-*` files of earlier
tests) and, in the even tests, edits it (`made-by-<test>.txt`, a line in `notes.txt`). With
`isolation: per_test` the graders check the before_each file and the test's own file changes; with a shared
workspace they check that before_all ran once and that each test sees the previous test's edits, which only
holds when the tests take turns in one workspace in order. Broken lifecycles lose points, not just rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from tests.helpers.repos import make_repo

TESTS = 4
PER_TEST_SCORES = [1.0, 0.5, 1.0, 0.5]  # the odd tests edit nothing, so their file-changes grader fails
SHARED_SCORES = [1.0, 1.0, 0.5, 1.0]  # t2 looks for t1's file, and t1 edits nothing

AGENT = """\
import pathlib, sys
test_id, output = sys.argv[1:3]
here = pathlib.Path.cwd()
ready = (here / "ready.txt").read_text() if (here / "ready.txt").exists() else "none"
setups = len((here / "setup.txt").read_text().splitlines()) if (here / "setup.txt").exists() else 0
seen = ",".join(sorted(p.name for p in here.glob("made-by-*")))
if int(test_id[1:]) % 2 == 0:
    (here / f"made-by-{test_id}.txt").write_text(test_id)
    with open(here / "notes.txt", "a") as notes:
        notes.write(f"edited by {test_id}\\n")
pathlib.Path(output).write_text(f"ready={ready} setup={setups} saw={seen}")
"""

# a code-grader: the test's own edits are in its file changes, and nobody else's
CHANGES = """\
import json, sys
me, changes = sys.argv[1], json.load(sys.stdin).get("file_changes") or ""
checks = [f"+edited by {me}" in changes, f"made-by-{me}.txt" in changes, changes.count("edited by") == 1]
print(json.dumps({"score": sum(checks) / len(checks), "assertions": [{"text": f"check {i}", "passed": ok} for i, ok in enumerate(checks)]}))
"""

READY = "import pathlib, sys; pathlib.Path(sys.argv[1], 'ready.txt').write_text(sys.argv[2])"
SETUP = "import pathlib, sys; open(pathlib.Path(sys.argv[1], 'setup.txt'), 'a').write('setup\\n')"


def workspace_repo(root: Path, shared: bool, executor: dict | None = None, workers: int = 2) -> Path:
    """A repository whose eval runs every test in a workspace: one shared by all, or one per test."""
    python = sys.executable
    if shared:
        workspace = {
            "template": "./template",
            "hooks": {"before_all": {"command": [python, "-c", SETUP, "{{workspace_path}}"]}},
        }
    else:
        before_each = {"command": [python, "-c", READY, "{{workspace_path}}", "{{test_id}}"]}
        workspace = {"template": "./template", "isolation": "per_test", "hooks": {"before_each": before_each}}
    tests = [{"id": f"t{i}", "input": f"question {i}", "assertions": _assertions(i, shared)} for i in range(TESTS)]
    suite = {"execution": {"target": "agent"}, "workspace": workspace, "tests": tests}
    target = {"name": "agent", "provider": "cli", "command": f"{python} agent.py {{EVAL_ID}} {{OUTPUT_FILE}}"}
    config = {
        "artifact": "prompt.md",
        "eval": {"file": "evals/suite.eval.yaml", "workers": workers},
        "mutator": {"provider": "command", "command": "true"},
    }
    if executor is not None:
        config["executor"] = executor
    files = {
        "prompt.md": "be thorough\n",
        "evals/suite.eval.yaml": yaml.safe_dump(suite, sort_keys=False),
        "evals/changes.py": CHANGES,
        "evals/template/agent.py": AGENT,
        "evals/template/notes.txt": "notes\n",
        ".agentv/targets.yaml": yaml.safe_dump({"targets": [{**target, "timeout_seconds": 120}]}),
        "autoresearch.yaml": yaml.safe_dump(config),
    }
    return make_repo(root, files)


def _assertions(i: int, shared: bool) -> list[dict]:
    if shared:
        previous = [{"type": "contains", "value": f"made-by-t{i - 1}.txt"}] if i else []
        return [{"type": "contains", "value": "setup=1 "}, *previous]
    changes = {"type": "code-grader", "command": [sys.executable, "changes.py", f"t{i}"]}
    return [{"type": "contains", "value": f"ready=t{i} "}, changes]
