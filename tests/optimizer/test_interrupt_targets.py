"""Ctrl-C while built-in tests are running: the run stops now, not once its targets are done.

The target of these tests holds (a held `cli` target, as an agent working for minutes would) until the test
lets it go, which it does only after the daemon has exited or a minute has passed. A run that waited for its
running targets, or went on starting new ones from other candidates' runners, would exit only then.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.helpers.repos import GIT_ENV, git, make_repo

AGENT = """\
import os, pathlib, sys, time
marks = pathlib.Path(os.environ["MARKS_DIR"])
if "hold" in pathlib.Path("prompt.md").read_text():
    (marks / f"started-{sys.argv[1]}-{os.getpid()}").touch()
    while not (marks / "release").exists():
        time.sleep(0.05)
open(sys.argv[2], "w").write("answer")
"""


def repo(root: Path, candidates: int) -> Path:
    tests = [{"id": f"t{i}", "input": "q", "assertions": [{"type": "contains", "value": "answer"}]} for i in range(6)]
    target = {"name": "agent", "provider": "cli", "command": f"{sys.executable} agent.py {{EVAL_ID}} {{OUTPUT_FILE}}"}
    config = {
        "artifact": "prompt.md",
        "eval": {"file": "evals/suite.eval.yaml", "workers": 2},
        # each candidate its own edit: siblings that made the same edit share one run of each
        # test (the sample cache's claim), and the second held target would never start
        "mutator": {"provider": "command", "command": "sh -c 'echo hold $AUTORESEARCH_SIBLING >> prompt.md'"},
        "search": {"candidates": candidates},
        "stop": {"max_cycles": 3},
    }
    files = {
        "prompt.md": "be brief\n",
        "agent.py": AGENT,
        "evals/suite.eval.yaml": yaml.safe_dump({"execution": {"target": "agent"}, "tests": tests}),
        ".agentv/targets.yaml": yaml.safe_dump({"targets": [{**target, "cwd": "..", "timeout_seconds": 300}]}),
        "autoresearch.yaml": yaml.safe_dump(config),
    }
    return make_repo(root, files)


def held_agents(marks: Path) -> list[int]:
    """The held targets still running (a killed one nobody has reaped yet is a zombie: ended)."""
    alive = []
    for mark in marks.glob("started-*"):
        pid = int(mark.name.rsplit("-", 1)[1])
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


CLI = [sys.executable, "-m", "autoresearch.optimizer", "run"]
# the Python API in a script of the user's: the Interrupted it raises ends the script (exit 1, its traceback)
API = [sys.executable, "-c", "from autoresearch import Experiment; Experiment('autoresearch.yaml').run()"]


def interrupt(command: list[str], tree: Path, marks: Path, signum: int) -> tuple[int | None, list[int], str]:
    """`command` in `tree`, a job of its own as a shell starts it, sent `signum` on its process group (as Ctrl-C
    is) once two targets hold: its exit (None while it still waited for them a minute later), the targets still
    held when it had exited, and its stderr."""
    marks.mkdir()
    proc = subprocess.Popen(
        command,
        cwd=tree,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", "MARKS_DIR": str(marks)},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(marks.glob("started-*"))) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert len(list(marks.glob("started-*"))) >= 2, "two targets never held at once"
        os.killpg(proc.pid, signum)
        try:
            exited = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            exited = None  # still waiting for its held targets: the defect
        still_held = held_agents(marks)
    finally:
        (marks / "release").touch()
        proc.wait()
    return exited, still_held, proc.stderr.read().decode() if proc.stderr else ""


@pytest.mark.parametrize(("candidates", "command", "code"), [(1, CLI, 130), (2, CLI, 130), (1, API, 1)])
def test_ctrl_c_while_targets_run_exits_at_once_and_ends_them(tmp_path, candidates, command, code):
    tree = repo(tmp_path / "repo", candidates)
    exited, still_held, stderr = interrupt(command, tree, tmp_path / "marks", signal.SIGINT)
    assert exited == code, stderr
    assert "Interrupted: interrupted (Ctrl-C)" in stderr if command is API else "Traceback" not in stderr
    assert still_held == []  # the targets it started were ended with it
    assert (tree / "prompt.md").read_text() == "be brief\n"  # the candidate's edit undone
    assert git(tree, "status", "--porcelain").strip() == ""


EVAL = [sys.executable, "-m", "autoresearch.optimizer", "eval"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("path", [[], ["evals/suite.eval.yaml"]])
def test_an_interrupted_eval_exits_130_at_once_and_ends_its_targets(tmp_path, signum, path):
    """The configured eval, and an eval file on its own: SIGTERM killed it with -15 before."""
    tree = repo(tmp_path / "repo", 1)
    (tree / "prompt.md").write_text("hold\n")
    exited, still_held, stderr = interrupt(EVAL + path, tree, tmp_path / "marks", signum)
    assert exited == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr, stderr
    assert still_held == []
