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
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.helpers.repos import GIT_ENV, make_repo

# For an eval script to write its rows as json.dumps does without importing json: json, pathlib and subprocess
# load re and enum, 20-30 ms of CPU in each of the many eval and mutator processes the tests start.
JSON_WRITING = r"""
def text(value):  # a JSON string as json.dumps writes it: ASCII, everything else escaped
    out = []
    for c in value:
        o = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= o < 0x7F:
            out.append(c)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | o >> 10, 0xDC00 | o & 0x3FF))
        else:
            out.append("\\u%04x" % o)
    return '"' + "".join(out) + '"'


def number(value):  # a JSON number as json.dumps writes a float
    return {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}.get(repr(value), repr(value))
"""

EVAL = (
    r"""
import os, sys, time  # only modules Python has loaded at start (JSON_WRITING says why)


def files_under(folder):  # in pathlib's order (by path components), as rglob("*") sorted gave them
    found = [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names]
    return sorted((f for f in found if os.path.isfile(f)), key=lambda f: f.split(os.sep))
"""
    + JSON_WRITING
    + r"""

artifact = sys.argv[2]
files = files_under(artifact) if os.path.isdir(artifact) else [artifact]
lines = [l.split() for f in files for l in open(f).read().splitlines() if l.strip()]
rows = []
for words in lines:
    if words[0] == "FAIL":
        print("eval broke on purpose", file=sys.stderr); sys.exit(int(words[1]))
    if words[0] == "HANG":
        time.sleep(600)
    if words[0] == "WAITGATE":
        open("waiting", "a").close()
        while not os.path.exists("gate"):
            time.sleep(0.02)
    if words[0] == "METRIC":
        print(f"step 10 val_bpb: {words[1]}"); sys.exit(0)
    if words[0] == "MALFORMED":
        open(os.path.join(sys.argv[1], "index.jsonl"), "w").write("{not json\n"); sys.exit(0)
    if len(words) == 2 and words[0][0].isalpha():
        score = float(words[1])
        rows.append(f'{{"test_id": {text(words[0])}, "score": {number(score)}, "scores": [{{"name": '
                    f'{text("check-" + words[0])}, "type": "contains", "score": {number(score)}}}], "cost_usd": 0.001}}')
with open(os.path.join(sys.argv[1], "index.jsonl"), "w") as out:
    for row in rows:
        out.write(row + "\n")
"""
)

MUTATOR = r"""
import os, sys, time  # only modules Python has loaded at start (JSON_WRITING says why)

# plan.json as json.dumps writes it (ASCII, \u escapes) is a Python literal but for true, false and null
plan = eval(open("plan.json").read(), {"__builtins__": {}}, {"true": True, "false": False, "null": None})
cycle = os.environ["AUTORESEARCH_CYCLE"]
step = plan.get(cycle + "." + os.environ.get("AUTORESEARCH_SIBLING", "")) or plan.get(cycle)  # "2.1": sibling 1
if step is None:
    print("no plan for this cycle", file=sys.stderr); sys.exit(3)
for path, text in step.get("write", {}).items():
    if os.path.dirname(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)
for path in step.get("delete", []):
    os.remove(path)
if step.get("run"):
    import subprocess
    for command in step["run"]:
        subprocess.run(command, shell=True, check=True, capture_output=True)
if step.get("hold"):  # let the test act during the mutation: signal, then wait for its go-ahead
    open(".autoresearch/mutating", "a").close()
    while not os.path.exists(".autoresearch/go-on"):
        time.sleep(0.02)
if "summary" in step:
    changelog = os.environ.get("AUTORESEARCH_CHANGELOG") or os.path.join(os.environ["AUTORESEARCH_RUN_DIR"], "mutation.md")
    with open(changelog, "w") as file:
        file.write(step["summary"] + "\n\ndetails\n")
print(step.get("stdout", "mutated"))
sys.exit(step.get("exit", 0))
"""


ROWS_EVAL = r"""
import os, sys  # only modules Python has loaded at start (JSON_WRITING says why)
score = open(sys.argv[2]).read().split()[0].encode()
with open("evals/rows.jsonl", "rb") as rows, open(os.path.join(sys.argv[1], "index.jsonl"), "wb") as out:
    out.write(rows.read().replace(b"@SCORE@", score))
"""


def rows_repo(root: Path, rows: str, plan: dict[int, dict] | None = None, **config) -> Path:
    """A repository whose eval writes `rows` (JSON text, as a test spells it) with "@SCORE@" replaced by the
    artifact's one number: 0.5 at first, then the plan's (by default a KEEP at 1, then a DROP at 0)."""
    plan = plan or {
        2: {"write": {"prompt.md": "1\n"}, "summary": "up"},
        3: {"write": {"prompt.md": "0\n"}, "summary": "down"},
    }
    files = {"evals/score.py": ROWS_EVAL, "evals/rows.jsonl": rows}
    return scenario_repo(root, {"prompt.md": "0.5\n"}, plan, config=config or None, extra_files=files)


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


def held_in_a_mutation(repo: Path, *args: str) -> subprocess.Popen:
    """`run ARGS` started in `repo` (quiet), returned once a planned step's `hold` has its mutator waiting."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run", *args],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: (repo / ".autoresearch/mutating").exists())
    return proc
