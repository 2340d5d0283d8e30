"""`autoresearch run > run.log` at the top of the repository: the daemon's own output is no mutator's write.

Found by running the daemon with its output redirected into the repository (a file git does not ignore): its
warning that the command mutator reports no spend, said during the first mutation, was taken by the scope guard
for the mutator's write outside the artifact; cycle 2 failed as `out-of-scope` and run.log was undone. The
guard leaves out the files the daemon's stdout and stderr are as the run starts.
"""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers.repos import GIT_ENV
from tests.helpers.scenario import iterations, scenario_repo, scores

NO_SPEND = "the command mutator reported no spend"


def test_the_daemons_own_output_in_the_repository_is_left_alone_by_the_guard(tmp_path):
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.2)}, {2: {"write": {"prompt.md": scores(a=0.9)}}})
    with open(repo / "run.log", "wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "autoresearch.optimizer", "run"],
            cwd=repo,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=120,
            env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
        )
    log = (repo / "run.log").read_text()
    assert done.returncode == 0, log
    assert [(r["decision"], r.get("error")) for r in iterations(repo)] == [("keep", None), ("keep", None)]
    assert NO_SPEND in log  # written during the mutation, and not undone


def test_the_daemons_output_through_tee_into_the_repository_is_left_alone_by_the_guard(tmp_path):
    """`autoresearch run 2>&1 | tee run.log`: the same lines reach run.log through a pipe and `tee`."""
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.2)}, {2: {"write": {"prompt.md": scores(a=0.9)}}})
    tee = subprocess.Popen(["tee", "run.log"], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        stdout=tee.stdin,
        stderr=subprocess.STDOUT,
        timeout=120,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
    assert tee.stdin is not None
    tee.stdin.close()
    tee.wait(timeout=30)
    log = (repo / "run.log").read_text()
    assert done.returncode == 0, log
    assert [(r["decision"], r.get("error")) for r in iterations(repo)] == [("keep", None), ("keep", None)]
    assert NO_SPEND in log
