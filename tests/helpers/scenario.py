"""A repository whose artifact spells out its own scores, and a mutator that follows a plan.

The mutator's plan, per cycle (or per candidate, `<cycle>.<index>`, with
search.candidates > 1): files to `write` and `delete`, shell commands to
`run`, and `hold` (touch `.autoresearch/mutating`, then wait for
`.autoresearch/go-on`, so that a test can act while the mutation runs).

The eval reads lines `<test_id> <score>` from the artifact (all files, for a
directory), so each candidate's scores are exactly what the test wrote. A few
magic lines make the eval misbehave on purpose: `FAIL <code>`, `HANG`,
`MALFORMED`, `METRIC <value>`, and `WAITGATE` (touch `waiting`, then wait for a
file named `gate` in the repository root).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.helpers.repos import make_repo

EVAL = r"""
import json, sys, time
from pathlib import Path

artifact = Path(sys.argv[2])
files = sorted(p for p in artifact.rglob("*") if p.is_file()) if artifact.is_dir() else [artifact]
lines = [l.split() for f in files for l in f.read_text().splitlines() if l.strip()]
rows = []
for words in lines:
    if words[0] == "FAIL":
        print("eval broke on purpose", file=sys.stderr); sys.exit(int(words[1]))
    if words[0] == "HANG":
        time.sleep(600)
    if words[0] == "WAITGATE":
        Path("waiting").touch()
        while not Path("gate").exists():
            time.sleep(0.02)
    if words[0] == "METRIC":
        print(f"step 10 val_bpb: {words[1]}"); sys.exit(0)
    if words[0] == "MALFORMED":
        Path(sys.argv[1], "index.jsonl").write_text("{not json\n"); sys.exit(0)
    if len(words) == 2 and words[0][0].isalpha():
        rows.append({"test_id": words[0], "score": float(words[1]),
                     "scores": [{"name": "check-" + words[0], "type": "contains", "score": float(words[1])}],
                     "cost_usd": 0.001})
with open(Path(sys.argv[1], "index.jsonl"), "w") as out:
    for row in rows:
        out.write(json.dumps(row) + "\n")
"""

MUTATOR = r"""
import json, os, subprocess, sys, time
from pathlib import Path

plan = json.loads(Path("plan.json").read_text())
cycle = os.environ["AUTORESEARCH_CYCLE"]
step = plan.get(cycle + "." + os.environ.get("AUTORESEARCH_SIBLING", "")) or plan.get(cycle)  # "2.1": sibling 1
if step is None:
    print("no plan for this cycle", file=sys.stderr); sys.exit(3)
for path, text in step.get("write", {}).items():
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)
for path in step.get("delete", []):
    Path(path).unlink()
for command in step.get("run", []):
    subprocess.run(command, shell=True, check=True, capture_output=True)
if step.get("hold"):  # let the test act during the mutation: signal, then wait for its go-ahead
    Path(".autoresearch/mutating").touch()
    while not Path(".autoresearch/go-on").exists():
        time.sleep(0.02)
if "summary" in step:
    changelog = os.environ.get("AUTORESEARCH_CHANGELOG") or Path(os.environ["AUTORESEARCH_RUN_DIR"], "mutation.md")
    Path(changelog).write_text(step["summary"] + "\n\ndetails\n")
print(step.get("stdout", "mutated"))
sys.exit(step.get("exit", 0))
"""


def scenario_repo(
    root: Path,
    artifact: dict[str, str],
    plan: dict[int, dict],
    *,
    config: dict | None = None,
    extra_files: dict[str, str] | None = None,
) -> Path:
    """A committed repo with the artifact file(s), the eval, the planned mutator and autoresearch.yaml."""
    artifact_path = next(iter(artifact)).split("/")[0] if len(artifact) > 1 else next(iter(artifact))
    # the eval's and the mutator's timeouts bound a test only when it hangs by mistake: the tests that hold a
    # cycle at a gate (WAITGATE, `hold`) run commands meanwhile, which take more than 30 s on a loaded machine
    settings = {
        "experiment": "exp",
        "artifact": artifact_path,
        "eval": {"command": f"python3 evals/score.py {{run_dir}} {artifact_path}", "timeout_s": 300},
        # the planned mutator acts on the user's checkout (`hold`, writes outside the artifact) to test the scope
        # guard; tests/optimizer/startup/test_sandbox.py runs mutators in the sandbox
        "mutator": {"provider": "command", "command": "python3 tools/mutate.py", "timeout_s": 300, "sandbox": "off"},
        "stop": {"max_cycles": len(plan) + 1, "max_convergence": 10},
    }
    for key, value in (config or {}).items():
        if isinstance(value, dict) and isinstance(settings.get(key), dict):
            settings[key] = {**settings[key], **value}
        else:
            settings[key] = value
    files = {
        **artifact,
        "evals/score.py": EVAL,
        "tools/mutate.py": MUTATOR,
        "plan.json": json.dumps({str(k): v for k, v in plan.items()}),
        "autoresearch.yaml": yaml.safe_dump(settings, sort_keys=False),
        **(extra_files or {}),
    }
    return make_repo(root, files)


def scores(**by_test: float) -> str:
    return "".join(f"{test} {score}\n" for test, score in by_test.items())


def iterations(repo: Path, experiment: str = "exp") -> list[dict]:
    path = repo / ".autoresearch" / "runs" / experiment / "_autoresearch" / "iterations.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def state(repo: Path, experiment: str = "exp") -> dict:
    return json.loads((repo / ".autoresearch" / "runs" / experiment / "_autoresearch" / "state.json").read_text())


def wait_for(condition, timeout: float = 120.0) -> None:
    """Poll a condition on disk (files the daemon or the eval write) until it holds. The default bound only ends
    a test that hangs: on a loaded machine a daemon took most of 30 s to reach its second cycle's eval."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.02)
