"""start, stop and the detached daemon, as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys

import yaml

from autoresearch.optimizer.experiment.lockfile import holder
from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state, wait_for

IGNORE = {".gitignore": "waiting\ngate\n"}


def lock(repo):
    return repo / ".autoresearch/runs/exp/_autoresearch/lock"


def in_eval_of(repo, cycle: int):
    def check() -> bool:
        try:
            st = state(repo)
        except (FileNotFoundError, ValueError):
            return False
        return st["cycle"] == cycle - 1 and st["phase"] == "eval" and (repo / "waiting").exists()

    return check


def test_start_detaches_and_stop_now_interrupts_and_restores(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files=IGNORE)
    started = cli(repo, "start")
    assert started.returncode == 0, started.stdout + started.stderr
    assert "in the background (pid" in started.stdout and "autoresearch stop exp" in started.stdout
    wait_for(in_eval_of(repo, 2))
    pid = holder(lock(repo))
    assert pid is not None and state(repo)["pid"] == pid

    assert cli(repo, "start").returncode == 30  # one loop per experiment

    stopped = cli(repo, "stop", "--now")
    assert stopped.returncode == 0, stopped.stderr
    assert "stopped: stopped (interrupted)" in stopped.stdout
    assert holder(lock(repo)) is None
    assert (repo / "prompt.md").read_text() == scores(a=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    assert [r["cycle"] for r in iterations(repo)] == [1]
    assert cli(repo, "stop").stdout.strip() == "experiment exp is not running"


def test_a_second_run_while_one_is_mid_cycle_names_it_and_never_calls_its_candidate_uncommitted(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}, "summary": "fix a"}}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={**IGNORE, "other.md": scores(b=0)}
    )
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    (repo / "other.yaml").write_text(yaml.safe_dump({**config, "experiment": "other", "artifact": "other.md"}))
    git(repo, "add", "other.yaml")
    git(repo, "commit", "-qm", "a second experiment")
    assert cli(repo, "start").returncode == 0
    wait_for(in_eval_of(repo, 2))  # the candidate is in the working tree
    pid = holder(lock(repo))
    for args in (["start"], ["run"], ["run", "--restart"], ["run", "--detach"]):
        done = cli(repo, *args)
        assert_one_line_error(
            done,
            30,
            f"locked by pid {pid} since ",
            "commit nothing",
            "autoresearch logs exp -f",
            "autoresearch stop exp",
        )
        assert "uncommitted" not in done.stderr
    evaluated = cli(repo, "eval")  # it would score the candidate as the user's artifact
    assert_one_line_error(
        evaluated, 30, f"'exp' is running in this checkout (pid {pid} since ", "autoresearch stop exp"
    )
    assert not (repo / ".autoresearch/evals").exists()
    other = cli(repo, "run", "-c", "other.yaml")  # its scope check would undo this one's candidate
    assert_one_line_error(other, 30, "'exp' is running in this checkout", "--worktree")
    assert not (repo / ".autoresearch/runs/other").exists()
    (repo / "gate").touch()
    wait_for(lambda: holder(lock(repo)) is None)
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)] == [(1, "keep"), (2, "keep")]
    assert git(repo, "log", "-1", "--format=%s").strip() == "autoresearch cycle 2: fix a"


def test_eval_while_the_daemon_works_in_its_own_worktree_scores_the_checkout(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files=IGNORE)
    assert cli(repo, "start", "--worktree").returncode == 0
    tree = repo / ".autoresearch/worktrees/exp"
    wait_for(lambda: (tree / "waiting").exists())
    evaluated = cli(repo, "eval")
    assert evaluated.returncode == 0, evaluated.stderr
    assert evaluated.stdout.startswith("score 0.0000 over 1 test(s)")
    (tree / "gate").touch()
    wait_for(lambda: holder(lock(repo)) is None)


def test_graceful_stop_lets_the_running_eval_finish_and_records_it(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}},
        3: {"write": {"prompt.md": scores(a=1) + "# more\n"}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files=IGNORE)
    assert cli(repo, "start").returncode == 0
    wait_for(in_eval_of(repo, 2))
    stopping = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "stop"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / ".autoresearch/runs/exp/_autoresearch/STOP").exists())
    (repo / "gate").touch()
    out, err = stopping.communicate(timeout=60)
    assert stopping.returncode == 0, err
    assert "stop-requested" in out
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)] == [(1, "keep"), (2, "keep")]
    assert git(repo, "status", "--porcelain").strip() == ""


def test_start_fails_in_the_foreground_on_bad_input_and_starts_nothing(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {})
    (repo / "prompt.md").write_text("dirty\n")
    done = cli(repo, "start")
    assert done.returncode == 30 and "uncommitted changes" in done.stderr
    assert not lock(repo).exists()


def test_worktree_runs_on_its_own_branch_and_leaves_the_checkout_alone(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}
    )
    (repo / "notes.txt").write_text("the user keeps working\n")
    done = cli(repo, "run", "--worktree")
    assert done.returncode == 0, done.stderr
    assert (repo / "prompt.md").read_text() == scores(a=0)  # the user's checkout is untouched
    assert git(repo, "log", "-1", "--format=%s").strip() == "initial"
    assert git(repo, "log", "-1", "--format=%s", "autoresearch/exp").strip() == "autoresearch cycle 2: fix a"
    assert (repo / ".autoresearch/worktrees/exp/prompt.md").read_text() == scores(a=1)
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    report = cli(repo, "report")
    assert "git merge autoresearch/exp" in report.stdout
    assert git(repo, "status", "--porcelain").strip() == "?? notes.txt"
