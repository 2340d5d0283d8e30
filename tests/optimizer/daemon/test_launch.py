"""Only our code runs: a repository with files or folders named like our packages never shadows them.

Each of our top-level packages gets an impostor in the user's repository (a
module file `x.py`, or a package folder `x/`) that leaves a marker and exits
99 if it is ever imported. Then every mode that starts a Python process of
ours runs a whole experiment there: `start`, `run` in a terminal, `schedule`
(detached, with a firing), and `demo`. They are started with the installed
`autoresearch` command, as a user does (`python -m autoresearch.optimizer` from the
repository would import the impostors in the command itself).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from autoresearch.optimizer.experiment.lockfile import holder
from tests.helpers.impostors import AUTORESEARCH, impostors
from tests.helpers.repos import GIT_ENV, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state, wait_for
from tests.optimizer.daemon.test_attach import Terminal

PLAN = {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}


def shadowed_repo(
    tmp_path: Path, layout: str, also: tuple[str, ...] = (), config: dict | None = None
) -> tuple[Path, Path]:
    markers = tmp_path / "markers"
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, PLAN, config=config, extra_files=impostors(markers, layout, also)
    )
    return repo, markers


def autoresearch(cwd: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [AUTORESEARCH, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **GIT_ENV, **(env or {})},
    )


def lock(repo: Path) -> Path:
    return repo / ".autoresearch/runs/exp/_autoresearch/lock"


def assert_ours_ran(repo: Path, markers: Path) -> None:
    assert sorted(p.name for p in markers.iterdir()) == []
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)] == [(1, "keep"), (2, "keep")]


@pytest.fixture(params=["files", "folders"])
def layout(request) -> str:
    return request.param


def test_start_runs_our_daemon_not_the_repository_s_modules(tmp_path, layout):
    repo, markers = shadowed_repo(tmp_path, layout)
    started = autoresearch(repo, "start")
    assert started.returncode == 0, started.stdout + started.stderr
    wait_for(lambda: holder(lock(repo)) is None and state(repo)["status"] != "running", timeout=60)
    assert_ours_ran(repo, markers)
    assert state(repo)["status"] == "finished"


def test_run_in_a_terminal_follows_our_daemon(tmp_path, layout):
    repo, markers = shadowed_repo(tmp_path, layout)
    term = Terminal(repo, [AUTORESEARCH, "run"])
    assert term.proc.wait(timeout=60) == 0
    assert_ours_ran(repo, markers)


def test_schedule_detached_fires_our_runs(tmp_path, layout):
    repo, markers = shadowed_repo(tmp_path, layout)
    done = autoresearch(repo, "schedule", "--cron", "* * * * * *", "--max-cycles", "1", "--detach")
    assert done.returncode == 0, done.stdout + done.stderr
    record = repo / ".autoresearch/schedules/exp/schedule.json"
    wait_for(lambda: len(json.loads(record.read_text()).get("runs", [])) >= 2, timeout=60)
    os.kill(json.loads(record.read_text())["pid"], signal.SIGTERM)
    wait_for(lambda: json.loads(record.read_text())["status"] == "stopped", timeout=60)
    assert [r["exit_code"] for r in json.loads(record.read_text())["runs"]][:2] == [10, 0]
    assert_ours_ran(repo, markers)


def test_demo_from_a_shadowing_directory_runs_ours(tmp_path, layout):
    repo, markers = shadowed_repo(tmp_path, layout)
    done = autoresearch(repo, "demo", "--dir", str(tmp_path / "demo"), "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(markers.iterdir()) == []


def test_a_pythonpath_naming_the_repository_does_not_reach_the_daemon(tmp_path, layout):
    """`PYTHONPATH=.` (or the empty entry of `PYTHONPATH=$PYTHONPATH:/x`) names the daemon's working directory,
    where neither our packages nor our dependencies (here `yaml`) may come from, nor a `sitecustomize` run.
    The eval still gets the PYTHONPATH the user set."""
    seen = 'echo "$PYTHONPATH" > {run_dir}/pythonpath.txt && python3 evals/score.py {run_dir} prompt.md'
    repo, markers = shadowed_repo(tmp_path, layout, also=("yaml", "sitecustomize"), config={"eval": {"command": seen}})
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    config = str(repo / "autoresearch.yaml")
    started = autoresearch(elsewhere, "start", "--config", config, env={"PYTHONPATH": f".{os.pathsep}"})
    assert started.returncode == 0, started.stdout + started.stderr
    wait_for(lambda: holder(lock(repo)) is None and state(repo)["status"] != "running", timeout=60)
    assert_ours_ran(repo, markers)
    seen = {p.read_text() for p in (repo / ".autoresearch/runs/exp").glob("*/pythonpath.txt")}
    assert seen == {f".{os.pathsep}\n"}


def test_a_relative_pythonpath_entry_means_nothing_in_the_daemon(tmp_path):
    """`PYTHONPATH=..` names the user's parent directory where they type, and the repository in a daemon that
    runs in a subdirectory of it (here the config lives in `conf/`)."""
    repo, markers = shadowed_repo(tmp_path, "folders", also=("yaml", "sitecustomize"))
    (repo / "conf").mkdir()
    git(repo, "mv", "autoresearch.yaml", "conf/autoresearch.yaml")
    git(repo, "commit", "-qm", "config in conf/")
    home = tmp_path / "home" / "me"
    home.mkdir(parents=True)
    started = autoresearch(home, "start", "--config", str(repo / "conf/autoresearch.yaml"), env={"PYTHONPATH": ".."})
    assert started.returncode == 0, started.stdout + started.stderr
    wait_for(lambda: holder(lock(repo)) is None and state(repo)["status"] != "running", timeout=60)
    assert_ours_ran(repo, markers)
