"""Scratch folders a process killed with SIGKILL leaves in the temporary directory, removed by the next process
that makes one (or a daemon's start), never while their owner lives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from autoresearch.plumbing import owned
from tests.runs.evaltree import write_tree

GRADE = """\
import sys
from pathlib import Path
from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.runner.run import RunOptions
root = Path(sys.argv[1])
execute(prepare(root / "evals/suite.eval.yaml", root), root / "out", RunOptions(workers=1), show_progress=False)
"""
HOLD = """\
import sys
from autoresearch.plumbing import owned
with owned.temporary("held-") as path:
    print(path, flush=True)
    sys.stdin.read()
"""


def leftovers(temp: Path) -> list[Path]:
    return sorted(temp.rglob("autoresearch-grader-*"))


def test_a_code_graders_scratch_left_by_a_sigkill_is_removed_by_the_next_process(tmp_path, monkeypatch):
    """The process grading is killed while its code grader runs (the grader kills it): its scratch folder,
    with the payload, stayed in the temporary directory for good."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    tests = [{"id": "c", "input": "x", "assertions": [{"type": "code-grader", "command": "kill -9 $PPID"}]}]
    write_tree(tmp_path, tests, {"c": "xxx"})
    env = {**os.environ, "TMPDIR": str(temp)}
    killed = subprocess.run([sys.executable, "-c", GRADE, str(tmp_path)], env=env, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert leftovers(temp)  # the grader's folder, its owner gone
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with owned.temporary("next-") as path:  # the next process's first scratch folder sweeps
        assert Path(path).is_dir()
    assert leftovers(temp) == []


def test_a_live_processs_folder_is_never_swept(tmp_path, monkeypatch):
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdin is not None
    held = Path(holder.stdout.readline().strip())
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert owned.clear_leftovers() == []
    assert held.is_dir()
    holder.stdin.close()
    assert holder.wait() == 0 and not held.exists()
    assert [p.name.startswith(owned.PREFIX) for p in temp.iterdir()] == [True]  # the process's own, now free
    assert owned.clear_leftovers() == [held.parent]
    assert list(temp.iterdir()) == []
