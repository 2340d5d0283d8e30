"""`rollback` and `promote` as transactions: a kill or a signal at any point inside them is finished or
undone (by the next command, or by the command itself), and says which; refused while another experiment
runs in the checkout they would commit in. Real repositories, the real CLI, kills at named points
(autoresearch.plumbing.faults)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from autoresearch.plumbing.faults import ENV
from tests.helpers.procs import daemon, ended
from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, copy_of, git, made_once
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for
from tests.optimizer.experiment.test_versions import PLAN

NEXT = {
    c: {"write": {"prompt.md": scores(a=1, b=b)}, "summary": "next night"} for c, b in ((5, 0.6), (6, 0.7), (7, 0.8))
}


def ran(tmp_path, **config):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, {**PLAN, **NEXT}, config=config)
    done = cli(repo, "run", "--max-cycles", "4")
    assert done.returncode == 0, done.stderr
    return repo


# the module's tests on ran()'s plain run share it: one worker makes it once, and each test copies it
pytestmark = pytest.mark.xdist_group("version-transactions")


the_run = made_once(ran)


def killed_at(repo, point: str, *args: str, how: str = "SIGKILL") -> subprocess.CompletedProcess:
    """`autoresearch ARGS` in a process group of its own (as a shell's job), hit by `how` at `point`."""
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
        env={**os.environ, **GIT_ENV, ENV: f"{point}:1:{how}"},
    )


def assert_consistent(repo) -> None:
    """What any command must leave, however it ended: a clean index and tree, no merge under way, no
    conflict markers, whole lines in iterations.jsonl, no journal."""
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""
    assert not (repo / ".git" / "MERGE_HEAD").exists()
    assert "<<<<<<<" not in (repo / "prompt.md").read_text()
    text = (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").read_text()
    assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/version-command.json").exists()


def assert_resumes(repo) -> None:
    done = cli(repo, "run", "--max-cycles", "1")
    assert done.returncode in (0, 10), done.stderr  # never 50 ("--restart")
    assert iterations(repo)[-1]["mutation"] == "next night"


@pytest.mark.parametrize(
    "point, then, said",
    [
        ("rollback-restored", ["rollback", "--to", "2"], "was undone before its commit"),
        ("rollback-committed", ["run", "--max-cycles", "1"], "was finished: commit"),
        ("rollback-logged", ["status"], "was finished: commit"),
    ],
)
def test_a_rollback_killed_at_any_point_is_settled_by_the_next_command_which_says_how(
    tmp_path, the_run, point, then, said
):
    repo = copy_of(the_run, tmp_path / "r")
    before = git(repo, "rev-parse", "HEAD").strip()
    keep2 = iterations(repo)[1]["commit"]
    assert killed_at(repo, point, "rollback", "--to", "2").returncode == -9
    nxt = cli(repo, *then)
    assert nxt.returncode in (0, 10), nxt.stderr
    assert f"an interrupted `rollback --to 2` of 'exp' {said}" in nxt.stderr
    assert_consistent(repo)
    rolled = [r for r in iterations(repo) if r.get("reason") == "rollback to cycle 2"]
    if point == "rollback-restored" and then[0] != "rollback":
        assert git(repo, "rev-parse", "HEAD").strip() == before and rolled == []
    else:  # finished (or undone, then done again by the rollback that came next): one commit, one line
        assert len(rolled) == 1 and git(repo, "rev-parse", f"{rolled[0]['commit']}~1").strip() == before
        assert git(repo, "log", "-1", "--format=%s", rolled[0]["commit"]).strip() == "autoresearch rollback to cycle 2"
        assert git(repo, "show", f"{rolled[0]['commit']}:prompt.md") == git(repo, "show", f"{keep2}:prompt.md")
    assert_resumes(repo)


@pytest.mark.parametrize(
    "point, how",
    [("rollback-restored", "SIGINT:group"), ("rollback-committed", "SIGTERM"), ("rollback-logged", "SIGINT")],
)
def test_ctrl_c_or_sigterm_inside_a_rollback_finishes_it_and_exits_130_saying_so(tmp_path, the_run, point, how):
    repo = copy_of(the_run, tmp_path / "r")
    before = git(repo, "rev-parse", "HEAD").strip()
    done = killed_at(repo, point, "rollback", "--to", "2", how=how)
    assert_one_line_error(done, 130, "interrupted", "the rollback to cycle 2 was finished: commit", "cycle 5")
    assert_consistent(repo)
    assert git(repo, "rev-parse", "HEAD~1").strip() == before
    assert iterations(repo)[-1]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert_resumes(repo)


def conflicting_worktree_run(tmp_path):
    repo = ran(tmp_path, worktree=True)
    (repo / "prompt.md").write_text("a 0.1\nb 0.1\n")
    git(repo, "commit", "-q", "-am", "my own prompt")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def test_a_conflicting_promote_killed_during_its_merge_is_aborted_by_the_next_command(tmp_path):
    repo, mine = conflicting_worktree_run(tmp_path)
    assert killed_at(repo, "promote-merged", "promote").returncode == -9
    done = cli(repo, "status")
    assert done.returncode == 0, done.stderr
    assert "an interrupted `promote` of autoresearch/exp was undone: its merge was aborted" in done.stderr
    assert_consistent(repo)
    assert git(repo, "rev-parse", "HEAD").strip() == mine
    assert (repo / "prompt.md").read_text() == "a 0.1\nb 0.1\n"


def test_a_promote_killed_after_its_merge_is_kept_and_said_finished_by_the_next_promote(tmp_path):
    repo = ran(tmp_path, worktree=True)
    (repo / "notes.txt").write_text("mine\n")
    git(repo, "add", "notes.txt")
    git(repo, "commit", "-q", "-m", "my work")
    assert killed_at(repo, "promote-merged", "promote").returncode == -9
    done = cli(repo, "promote")
    assert done.returncode == 0, done.stderr
    assert "an interrupted `promote` of autoresearch/exp was finished" in done.stderr
    assert "nothing to promote" in done.stdout
    assert_consistent(repo)
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)


HELD_MERGE = f"""#!{sys.executable}
import os, sys, time
from pathlib import Path
if "merge" in sys.argv[1:]:  # held before git starts: the test kills the promote meanwhile
    Path("held").write_text(str(os.getpid()))
    while not Path("go").exists():
        time.sleep(0.02)
os.execv({shutil.which("git")!r}, ["git", *sys.argv[1:]])
"""


def test_a_conflicting_merge_cut_short_by_the_promotes_death_is_undone_by_the_next_command(tmp_path):
    """The promote killed while its git merge runs: that git goes on without it and dies (its output has
    nowhere to go) half-way, conflict markers written, no MERGE_HEAD. The next command puts the files back."""
    repo, mine = conflicting_worktree_run(tmp_path)
    (repo / ".git/info/exclude").write_text("held\ngo\n")
    wrapper = tmp_path / "bin/git"
    wrapper.parent.mkdir()
    wrapper.write_text(HELD_MERGE)
    wrapper.chmod(0o755)
    env = {**os.environ, **GIT_ENV, "PATH": f"{wrapper.parent}:{os.environ['PATH']}"}
    promote = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "promote"],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    wait_for(lambda: (repo / "held").exists() and (repo / "held").read_text() != "")
    promote.kill()
    promote.communicate(timeout=60)
    (repo / "go").touch()
    wait_for(lambda: ended(int((repo / "held").read_text())))
    done = cli(repo, "status")
    assert done.returncode == 0, done.stderr
    assert "an interrupted `promote` of autoresearch/exp was undone" in done.stderr
    assert "prompt.md" in done.stderr
    assert_consistent(repo)
    assert git(repo, "rev-parse", "HEAD").strip() == mine
    assert (repo / "prompt.md").read_text() == "a 0.1\nb 0.1\n"


def test_ctrl_c_during_a_conflicting_promote_exits_130_saying_it_was_undone(tmp_path):
    repo, mine = conflicting_worktree_run(tmp_path)
    done = killed_at(repo, "promote-merged", "promote", how="SIGINT:group")
    assert_one_line_error(done, 130, "interrupted", "the promote was undone", "conflicts in prompt.md")
    assert_consistent(repo)
    assert git(repo, "rev-parse", "HEAD").strip() == mine


def holding_other(repo):
    """A second experiment's daemon in the user's checkout, held in its mutation."""
    (repo / "plan.json").write_text(json.dumps({"2": {"hold": True}}))
    git(repo, "commit", "-q", "-am", "the other experiment's plan")
    other = daemon(repo, "run", "--experiment", "other", "--max-cycles", "2", "--no-worktree")
    wait_for(lambda: (repo / ".autoresearch" / "mutating").exists())
    return other


def let_go(repo, other) -> None:
    (repo / ".autoresearch" / "go-on").touch()
    _, err = other.communicate(timeout=120)
    assert other.returncode != 50, err  # its branch did not move under it


def test_rollback_refuses_while_another_experiment_runs_in_the_checkout(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    other = holding_other(repo)
    try:
        head = git(repo, "rev-parse", "HEAD")
        assert_one_line_error(cli(repo, "rollback", "exp", "--to", "2"), 30, "experiment 'other' is running")
        assert git(repo, "rev-parse", "HEAD") == head
    finally:
        let_go(repo, other)
    assert all(r.get("reason") != "rollback to cycle 2" for r in iterations(repo))


def test_promote_refuses_while_another_experiment_runs_in_the_checkout(tmp_path):
    repo = ran(tmp_path, worktree=True)
    other = holding_other(repo)
    try:
        head = git(repo, "rev-parse", "HEAD")
        assert_one_line_error(cli(repo, "promote", "exp"), 30, "experiment 'other' is running")
        assert git(repo, "rev-parse", "HEAD") == head
    finally:
        let_go(repo, other)


def test_edits_made_after_a_killed_rollback_are_saved_before_it_is_undone(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    assert killed_at(repo, "rollback-restored", "rollback", "--to", "2").returncode == -9
    (repo / "prompt.md").write_text("my own edit\n")
    done = cli(repo, "status")
    assert done.returncode == 0, done.stderr
    assert "was undone before its commit" in done.stderr and "its edits since are saved as" in done.stderr
    patch = next((repo / ".autoresearch/runs/exp/_autoresearch").glob("rollback-edits-*.patch"))
    assert "+my own edit" in patch.read_text()
    assert_consistent(repo)


def test_a_journal_that_is_not_ours_is_one_line_exit_50(tmp_path, the_run):
    repo = copy_of(the_run, tmp_path / "r")
    (repo / ".autoresearch/runs/exp/_autoresearch/version-command.json").write_text("{not json")
    assert_one_line_error(cli(repo, "rollback", "--to", "2"), 50, "version-command.json", "not a journal")
