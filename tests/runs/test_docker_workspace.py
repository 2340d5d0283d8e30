"""Docker workspaces (`workspace.docker`) against the real AgentV 4.42.4, both driving one stand-in `docker` CLI.

No Docker engine runs here, so a small `docker` program on PATH plays the
engine: it logs its argv and runs `exec` commands on the host. Both tools
run the same eval against it in each engine state; their scores and
statuses, and the docker commands they issued, must be the same.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import yaml

from tests.runs.parity.harness import DESCHEDULED_NODE, differences, eval_files, fresh_copy, run_agentv, run_ours

STUB = """\
#!{python}
import atexit, json, os, stat, subprocess, sys
@atexit.register
def drained():  # AgentV writes its input after starting it: exiting first made that write's EPIPE crash AgentV
    if stat.S_ISFIFO(mode := os.fstat(0).st_mode) or stat.S_ISSOCK(mode):
        while os.read(0, 1 << 16):
            pass
args = sys.argv[1:]
with open(os.environ["DOCKER_STUB_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
mode = os.environ.get("DOCKER_STUB_MODE", "up")
if args[:1] == ["version"]:
    sys.exit(1 if mode == "down" else print("28.2.2"))
if args[:2] == ["image", "inspect"]:
    sys.exit(1 if mode in ("absent", "unpullable") else 0)
if args[:1] == ["pull"]:
    sys.exit(print("no such image", file=sys.stderr) or 1 if mode == "unpullable" else 0)
if args[:1] == ["create"]:
    sys.exit(print("out of memory", file=sys.stderr) or 1 if mode == "uncreatable" else print("c0ffee"))
if args[:1] in (["start"], ["rm"]):
    sys.exit(0)
if args[:1] == ["exec"]:
    rest = args[2:] if args[1] == "-i" else args[1:]
    sys.exit(subprocess.run(rest[1:]).returncode)
sys.exit(2)
"""
GRADER = "import json,sys; d=json.load(sys.stdin); print(json.dumps({'score': 0.5 if 'input' in d else 0.0}))"
SUITE = {
    "name": "docker",
    "workspace": {"docker": {"image": "python:3.11-slim", "timeout": 60, "memory": "1g", "cpus": 0.5}},
    "execution": {"target": "agent"},
    "tests": [
        {"id": "argv", "input": "q", "assertions": [{"type": "code-grader", "command": ["python3", "-c", GRADER]}]},
        {"id": "shell", "input": "q", "assertions": [{"type": "code-grader", "command": "exit 3"}]},
    ],
}


@pytest.fixture
def case(tmp_path: Path, monkeypatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "docker"
    stub.write_text(STUB.format(python=sys.executable))
    stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    source = tmp_path / "source"
    (source / ".agentv").mkdir(parents=True)
    command = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write('done')\" {{OUTPUT_FILE}}"
    (source / ".agentv" / "targets.yaml").write_text(
        yaml.safe_dump({"targets": [{"name": "agent", "provider": "cli", "command": command}]})
    )
    (source / "docker.eval.yaml").write_text(yaml.safe_dump(SUITE, sort_keys=False))
    return source


def _both(case: Path, tmp_path: Path, monkeypatch, mode: str) -> tuple[dict, dict, list, list]:
    monkeypatch.setenv("DOCKER_STUB_MODE", mode)
    logs = []
    results = []
    for side in ("agentv", "ours"):
        log = tmp_path / f"{side}-{mode}.log"
        log.touch()
        monkeypatch.setenv("DOCKER_STUB_LOG", str(log))
        root = fresh_copy(case, tmp_path / f"{side}-{mode}")
        out = tmp_path / f"{side}-{mode}-out"
        env = {"DOCKER_STUB_LOG": str(log), "DOCKER_STUB_MODE": mode}
        rows = (
            run_agentv(root, eval_files(root), out, {**env, **DESCHEDULED_NODE})
            if side == "agentv"
            else run_ours(root, eval_files(root), out)
        )
        results.append(rows)
        logs.append(sorted(map(json.loads, log.read_text().splitlines())))  # tests run in either order
    return results[0], results[1], logs[0], logs[1]


@pytest.mark.parametrize("mode", ["up", "down", "absent", "unpullable", "uncreatable"])
def test_a_docker_workspace_scores_and_calls_docker_as_agentv_does(case, tmp_path, monkeypatch, mode):
    theirs, ours, their_calls, our_calls = _both(case, tmp_path, monkeypatch, mode)
    assert len(theirs) == 2
    assert differences(theirs, ours) == []
    assert our_calls == their_calls
    errors = {key[1]: (row["execution_status"], row.get("error")) for key, row in ours.items()}
    if mode in ("down", "unpullable"):  # the engine or the image is missing: nothing can be graded
        assert {status for status, _ in errors.values()} == {"execution_error"}
    else:
        assert ["rm", "-f", "c0ffee"] in our_calls or mode == "uncreatable"  # every container is removed
