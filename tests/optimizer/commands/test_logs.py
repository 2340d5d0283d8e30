"""`autoresearch logs`: daemon.log for people (or raw), and following a daemon as it works."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from tests.helpers.repos import GIT_ENV, cli
from tests.helpers.scenario import scenario_repo, scores, wait_for

PLAN = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}, "summary": "fix a"}}


def gated_repo(tmp_path):
    return scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, PLAN, extra_files={".gitignore": "waiting\ngate\n"}
    )


def test_logs_are_readable_lines_and_raw_json_on_request(tmp_path):
    repo = gated_repo(tmp_path)
    (repo / "gate").touch()
    assert cli(repo, "run").returncode == 0
    readable = cli(repo, "logs")
    assert readable.returncode == 0, readable.stderr
    lines = readable.stdout.splitlines()
    assert any("cycle 2   decide   keep score=1.0" in ln and "mutation=fix a" in ln for ln in lines), lines
    assert not any(ln.lstrip().startswith("{") for ln in lines)
    raw = cli(repo, "logs", "exp", "--json").stdout.splitlines()
    assert len(raw) == len(lines) and all("event" in json.loads(ln) for ln in raw)
    assert cli(repo, "logs", "-n", "2").stdout.splitlines() == lines[-2:]
    warnings = cli(repo, "logs", "-q").stdout.splitlines()
    assert warnings and all("WARNING" in ln or "ERROR" in ln for ln in warnings)


def test_logs_follow_prints_a_running_daemons_lines_as_they_come(tmp_path):
    repo = gated_repo(tmp_path)
    env = {**os.environ, **GIT_ENV}
    daemon = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out = tmp_path / "followed.txt"
    with open(out, "w") as sink:
        follower = subprocess.Popen(
            [sys.executable, "-m", "autoresearch.optimizer", "logs", "-f"],
            cwd=repo,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(lambda: (repo / "waiting").exists() and "cycle 2   eval     evaluating" in out.read_text())
        assert "decide" not in out.read_text()  # the cycle 2 decision has not happened yet
        (repo / "gate").touch()
        wait_for(lambda: "cycle 2   decide   keep" in out.read_text())
        assert daemon.wait(timeout=60) == 0
    finally:
        (repo / "gate").touch()
        follower.send_signal(signal.SIGINT)
        assert follower.wait(timeout=30) == 0


def test_logs_of_an_unknown_experiment_exit_30(tmp_path):
    repo = gated_repo(tmp_path)
    done = cli(repo, "logs", "nope")
    assert done.returncode == 30 and "no experiment 'nope'" in done.stderr
