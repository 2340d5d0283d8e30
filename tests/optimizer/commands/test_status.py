"""`autoresearch status`: what the experiments are doing, read from their files, stale daemons told apart."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.repos import GIT_ENV, cli, cli_imports
from tests.helpers.scenario import scenario_repo, scores, state, wait_for

STATE = ".autoresearch/runs/exp/_autoresearch/state.json"


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One experiment run to its end (3 cycles); each test gets its own copy of the repository."""
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "undo a"},
    }
    repo = scenario_repo(tmp_path_factory.mktemp("finished") / "r", {"prompt.md": scores(a=0, b=0)}, plan)
    assert cli(repo, "run").returncode == 0
    return repo


@pytest.fixture
def repo(finished, tmp_path):
    return Path(shutil.copytree(finished, tmp_path / "r", symlinks=True))


@pytest.mark.parametrize("args", [["status"], ["status", "exp"], ["status", "--json"]])
def test_status_imports_no_models_logging_git_or_yaml(repo, args):
    """People run status in a loop and scripts poll it: it reads a few files, and loads nothing heavier."""
    done, modules = cli_imports(repo, *args)
    assert done.returncode == 0 and "exp" in done.stdout, done.stderr[-2000:]
    assert sorted(modules & {"pydantic", "structlog", "rich", "importlib.metadata", "pygit2", "yaml"}) == []


def test_status_of_a_finished_experiment_shows_scores_counts_and_last_decisions(repo):
    done = cli(repo, "status", "exp")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "experiment exp: not running: finished (max_cycles), 3 cycles" in out
    assert "original 0.000, best 0.500 (cycle 2)" in out
    assert "2 keeps, 1 drops, 0 errors" in out
    assert [ln.split()[:3] for ln in out.splitlines() if ln.startswith("    cycle")] == [
        ["cycle", "1", "keep"],
        ["cycle", "2", "keep"],
        ["cycle", "3", "drop"],
    ]
    data = json.loads(cli(repo, "status", "exp", "--json").stdout)
    assert (data["running"], data["stale_pid"], data["state"]["best_score"]) == (False, None, 0.5)
    assert [r["mutation"] for r in data["last_decisions"]] == ["original", "fix a", "undo a"]


def test_status_without_a_name_lists_every_experiment_even_without_a_config(repo):
    assert cli(repo, "run", "--experiment", "other", "--max-cycles", "1").returncode == 10
    (repo / "sub").mkdir()
    done = cli(repo / "sub", "status")  # no autoresearch.yaml here: the repository's .autoresearch
    assert done.returncode == 0, done.stderr
    assert [ln.split(":")[0] for ln in done.stdout.splitlines()] == ["exp", "other"]
    assert "other: not running: finished (max_cycles), 1 cycles" in done.stdout
    listed = json.loads(cli(repo, "status", "--json").stdout)
    assert [e["experiment"] for e in listed["experiments"]] == ["exp", "other"]


def test_a_running_state_whose_pid_is_gone_is_reported_stale(repo):
    gone = subprocess.Popen(["true"])
    gone.wait()
    st = state(repo)
    (repo / STATE).write_text(json.dumps({**st, "status": "running", "pid": gone.pid}))
    done = cli(repo, "status", "exp")
    assert f"not running (stale: pid {gone.pid} is gone)" in done.stdout
    assert json.loads(cli(repo, "status", "exp", "--json").stdout)["stale_pid"] == gone.pid


def test_a_running_state_whose_pid_was_reused_is_still_stale(repo):
    (repo / STATE).write_text(json.dumps({**state(repo), "status": "running", "pid": os.getpid()}))
    assert f"not running (stale: pid {os.getpid()} no longer holds the lock)" in cli(repo, "status").stdout


def test_status_of_a_running_daemon_shows_cycle_phase_spend_and_time_left(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}, "summary": "wait"}}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "waiting\ngate\n"}
    )
    daemon = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run", "--budget-usd", "5", "--max-hours", "5"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: (repo / "waiting").exists())
        # state.json coalesces phase changes (written within 0.25 s, see Writer), so the eval can start first
        wait_for(lambda: state(repo)["phase"] == "eval")
        out = cli(repo, "status", "exp").stdout
        assert f"running (pid {daemon.pid}), cycle 2 eval for " in out
        assert "spend:     $0.00 of $5.00" in out
        assert "h " in out.split("deadline:")[1] and "left" in out
        assert json.loads(cli(repo, "status", "--json").stdout)["experiments"][0]["pid"] == daemon.pid
    finally:
        (repo / "gate").touch()
        assert daemon.wait(timeout=60) == 0


def test_an_unknown_experiment_exits_30_naming_the_known_ones(repo):
    done = cli(repo, "status", "nope")
    assert done.returncode == 30
    assert "no experiment 'nope'" in done.stderr and "known: exp" in done.stderr


@pytest.mark.parametrize("planted", ["folder", "fifo"])
def test_a_folder_or_a_fifo_at_state_json_is_named_by_status_report_and_run_never_waited_on(tmp_path, planted):
    """A FIFO at state.json made `status` wait forever for a writer (a plain read); a folder there was a
    traceback in every command. Each command now names the file in one line (exit 30) at once."""
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"write": {"prompt.md": scores(a=1, b=0)}}}
    )
    assert cli(repo, "run", "--max-cycles", "1").returncode == 10
    path = repo / ".autoresearch/runs/exp/_autoresearch/state.json"
    path.unlink()
    path.mkdir() if planted == "folder" else os.mkfifo(path)

    for args in (["status"], ["status", "exp"], ["report"], ["run"]):
        done = cli(repo, *args)
        assert done.returncode == 30, (args, done.stderr)  # InvalidInput
        assert f"{path}: " in done.stderr and "move it away" in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr, (args, done.stderr)
