"""HEAD stays where the run left it: a mutator that switches branches, a user who commits meanwhile,
a mutator that deletes the artifact."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

ORIGINAL = scores(a=0, b=0)
BETTER = scores(a=1, b=0)
# runs the planned mutator, then the git command of this cycle (if any)
GIT_MUTATOR = """
import json, os, subprocess, sys
subprocess.run([sys.executable, "tools/mutate.py"], check=True)
command = json.load(open("git-plan.json")).get(os.environ["AUTORESEARCH_CYCLE"])
if command:
    subprocess.run(command, check=True)
"""


def repo_with_git_mutator(tmp_path, git_plan: dict[int, list[str]]):
    plan = {
        2: {"write": {"prompt.md": BETTER}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix b"},
    }
    extra = {"tools/git_mutator.py": GIT_MUTATOR, "git-plan.json": json.dumps({str(k): v for k, v in git_plan.items()})}
    config = {"mutator": {"command": "python3 tools/git_mutator.py"}}
    return scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, plan, config=config, extra_files=extra)


def assert_back_on_main_untouched(repo, original_head: str) -> None:
    assert git(repo, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert git(repo, "rev-parse", "HEAD").strip() == original_head
    assert git(repo, "status", "--porcelain", "--", "prompt.md").strip() == ""
    assert (repo / "prompt.md").read_text() == ORIGINAL


def test_a_mutator_that_checks_out_a_new_branch_is_stopped_and_the_user_put_back(tmp_path):
    repo = repo_with_git_mutator(tmp_path, {2: ["git", "checkout", "-q", "-b", "elsewhere"]})
    head = git(repo, "rev-parse", "HEAD").strip()
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr
    assert "switched branches" in done.stderr and "elsewhere" in done.stderr
    assert_back_on_main_untouched(repo, head)
    assert [r["decision"] for r in iterations(repo)] == ["keep"]  # nothing decided on the wrong branch
    patches = list((repo / ".autoresearch/runs/exp").glob("*-c0002*/candidate.patch"))
    assert patches and "a 1" in patches[0].read_text()  # the candidate is kept as a patch


def test_a_mutator_that_detaches_head_is_stopped_and_the_user_put_back(tmp_path):
    repo = repo_with_git_mutator(tmp_path, {2: ["git", "checkout", "-q", "--detach"]})
    head = git(repo, "rev-parse", "HEAD").strip()
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr
    assert "detached" in done.stderr
    assert_back_on_main_untouched(repo, head)
    resumed = cli(repo, "run", "--max-cycles", "1")  # the experiment itself is intact
    assert "Traceback" not in resumed.stderr


def test_a_commit_the_user_makes_during_a_run_stops_it_at_the_next_decision(tmp_path):
    plan = {
        2: {"write": {"prompt.md": "WAITGATE\n" + BETTER}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=1, b=1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, plan, extra_files={".gitignore": "waiting\ngate\n"})
    daemon = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / "waiting").exists())
    (repo / "notes.txt").write_text("the user's own work\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "my own work")
    users = git(repo, "rev-parse", "HEAD").strip()
    (repo / "gate").touch()
    _, stderr = daemon.communicate(timeout=120)
    assert daemon.returncode == 50, stderr
    assert "git reset --keep" in stderr and "--restart" in stderr
    assert git(repo, "rev-parse", "HEAD").strip() == users  # nothing committed on top of the user's commit
    assert [r["decision"] for r in iterations(repo)] == ["keep"]
    assert (repo / "prompt.md").read_text() == ORIGINAL
    assert git(repo, "status", "--porcelain").strip() == ""


def test_a_mutator_that_deletes_a_file_artifact_makes_an_error_cycle(tmp_path):
    plan = {2: {"delete": ["prompt.md"], "summary": "gone"}, 3: {"write": {"prompt.md": BETTER}, "summary": "fix a"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error", "keep"]
    assert lines[1]["error_reason"] == "artifact-deleted"
    assert (repo / "prompt.md").read_text() == BETTER


def test_a_mutator_that_deletes_a_directory_artifact_makes_an_error_cycle(tmp_path):
    plan = {3: {"write": {"skill/a.md": BETTER}, "summary": "fix a"}}
    mutator = "import os, shutil\nif os.environ['AUTORESEARCH_CYCLE'] == '2':\n    shutil.rmtree('skill')\nelse:\n    exec(open('tools/mutate.py').read())\n"
    repo = scenario_repo(
        tmp_path / "r",
        {"skill/a.md": ORIGINAL, "skill/b.md": "c 0\n"},
        plan,
        config={"mutator": {"command": "python3 tools/rm.py"}, "stop": {"max_cycles": 3}},
        extra_files={"tools/rm.py": mutator},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error", "keep"]
    assert lines[1]["error_reason"] == "artifact-deleted"
    assert (repo / "skill/b.md").read_text() == "c 0\n"


def test_a_failing_mutator_that_switched_branches_is_put_back_too(tmp_path):
    repo = repo_with_git_mutator(tmp_path, {2: ["sh", "-c", "git checkout -q -b elsewhere && exit 3"]})
    head = git(repo, "rev-parse", "HEAD").strip()
    done = cli(repo, "run", "--max-cycles", "2")
    assert "Traceback" not in done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "error"]
    assert_back_on_main_untouched(repo, head)
