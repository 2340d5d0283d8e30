"""Refusals, the lock, interruption and resume: the user's repository is never left half-done."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys

import pytest

from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state, wait_for


def point_at_untracked_file(repo) -> None:
    config = repo / "autoresearch.yaml"
    config.write_text(config.read_text().replace("artifact: prompt.md", "artifact: new.md"))
    (repo / "new.md").write_text("a 1\n")


def test_refuses_outside_a_git_repository(tmp_path):
    (tmp_path / "prompt.md").write_text("a 1\n")
    (tmp_path / "autoresearch.yaml").write_text(
        "artifact: prompt.md\neval: {command: 'true'}\nmutator: {provider: command, command: 'true'}\n"
    )
    assert_one_line_error(cli(tmp_path, "run"), 30, "not inside a git repository")


@pytest.mark.parametrize(
    "change, needle",
    [
        (lambda repo: (repo / "prompt.md").unlink() or git(repo, "commit", "-qam", "rm"), "no such file"),
        (lambda repo: (repo / "prompt.md").write_text("a 1\n"), "uncommitted changes"),
        (lambda repo: point_at_untracked_file(repo), "not tracked"),
        (lambda repo: (repo / "autoresearch.yaml").write_text("artifact: [\n"), "not valid YAML"),
        (
            lambda repo: (
                repo / "autoresearch.yaml"
            ).write_text(  # in place: a second `stop:` is refused as given twice
                (repo / "autoresearch.yaml").read_text().replace("max_cycles: 2", "max_cycles: many", 1)
            ),
            "field 'stop.max_cycles'",
        ),
    ],
    ids=["missing-artifact", "dirty-artifact", "untracked-artifact", "bad-yaml", "bad-field"],
)
def test_refuses_bad_input_with_exit_30_and_changes_nothing(tmp_path, change, needle):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    change(repo)
    status_before = git(repo, "status", "--porcelain")
    head_before = git(repo, "rev-parse", "HEAD")
    assert_one_line_error(cli(repo, "run"), 30, needle)
    assert git(repo, "status", "--porcelain") == status_before
    assert git(repo, "rev-parse", "HEAD") == head_before


def test_a_second_run_on_a_locked_experiment_exits_30_and_names_the_holder(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    lock = repo / ".autoresearch/runs/exp/_autoresearch/lock"
    lock.parent.mkdir(parents=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        held.write(json.dumps({"pid": 4242, "since": "2026-11-21T22:00:00Z"}))
        held.flush()
        assert_one_line_error(cli(repo, "run"), 30, "locked by pid 4242")
    assert cli(repo, "run").returncode == 0  # the lock died with its holder


def eval_running(repo, cycle: int):
    def check() -> bool:
        try:
            st = state(repo)
        except (FileNotFoundError, json.JSONDecodeError):
            return False
        return st["cycle"] == cycle - 1 and st["phase"] == "eval" and (repo / "hanging").exists()

    return check


def test_sigterm_mid_eval_restores_head_and_run_resumes_the_experiment(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=1, b=1) + "HANG\n"}, "summary": "hangs"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        plan,
        config={"eval": {"command": "touch hanging; python3 evals/score.py {run_dir} prompt.md", "timeout_s": 60}},
        extra_files={".gitignore": "hanging\n"},
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(eval_running(repo, 3))
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0)  # HEAD: the cycle 2 KEEP
    assert git(repo, "status", "--porcelain").strip() == ""
    assert [r["cycle"] for r in iterations(repo)] == [1, 2]
    assert state(repo)["status"] == "stopped"

    plan[3] = {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix b"}
    # not committed: a committed change outside the artifact is a new eval, measured on HEAD again first
    # (tests/optimizer/cycle/test_measuring_stick.py); the mutator reads its plan from the checkout
    (repo / "plan.json").write_text(json.dumps({str(k): v for k, v in plan.items()}))
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in lines] == [(1, "keep"), (2, "keep"), (3, "keep")]
    assert (lines[2]["wins"], lines[2]["losses"]) == (1, 0)  # measured against cycle 2, not the original
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)


def test_resume_refuses_when_the_artifact_changed_outside_autoresearch(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    assert cli(repo, "run").returncode == 0
    (repo / "prompt.md").write_text(scores(a=0.5))
    git(repo, "commit", "-qam", "hand edit")
    assert_one_line_error(cli(repo, "run"), 50, "changed outside autoresearch")
    restarted = cli(repo, "run", "--restart", "--max-cycles", "1")
    assert restarted.returncode == 10, restarted.stderr
    assert iterations(repo)[0]["score"] == 0.5
    assert any(p.name.startswith("exp.restarted-") for p in (repo / ".autoresearch/runs").iterdir())


def test_results_directory_is_excluded_from_git(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    assert cli(repo, "run").returncode == 0
    assert "/.autoresearch/" in (repo / ".git/info/exclude").read_text()
    assert git(repo, "status", "--porcelain").strip() == ""


def test_sigterm_to_the_whole_process_group_restores_head_too(tmp_path):
    # systemd, docker and `kill -- -PGID` signal every process of the group, git helpers included
    plan = {2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}}}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, plan, extra_files={".gitignore": "waiting\ngate\n"}
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    wait_for(lambda: (repo / "waiting").exists())
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert (repo / "prompt.md").read_text() == scores(a=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    assert state(repo)["status"] == "stopped"


def test_two_restarts_in_a_row_keep_both_old_experiments(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    for _ in range(3):
        assert cli(repo, "run", "--restart", "--max-cycles", "1").returncode == 10
    kept = [p.name for p in (repo / ".autoresearch/runs").iterdir() if p.name.startswith("exp.restarted-")]
    assert len(kept) == 2
