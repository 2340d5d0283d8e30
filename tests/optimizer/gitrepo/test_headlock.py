"""The KEEP locks HEAD as git's commit does (`HEAD.lock`, before the branch's lock, removed last): a `git reflog
expire` of HEAD (a `git gc`), which rewrites `logs/HEAD` under that lock, can no longer rename its rewrite over
the KEEP's line; a KEEP that finds the lock another's writes nothing and ends the run with the candidate saved;
a kill while the KEEP holds it leaves it to the next start, which never takes a live git's."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from autoresearch.optimizer.gitrepo import branchmove, direct
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.faults import ENV
from tests.helpers.procs import daemon
from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import wait_for
from tests.optimizer.startup.test_config_reread import go_on, stopped_at
from tests.optimizer.startup.test_crash import assert_same_as_uninterrupted, make


def hold_head_lock(repo):
    """`HEAD.lock` taken as `git reflog expire` takes it (O_EXCL: it fails if the lock is held)."""
    os.close(os.open(repo / ".git/HEAD.lock", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))


def test_a_keep_writes_no_reflog_line_while_another_holds_head_lock_and_ends_the_run_with_the_candidate_saved(
    tmp_path,
):
    repo = make(tmp_path)
    run = stopped_at(repo, "direct-index-written")  # cycle 2's KEEP: its commit and index written, HEAD not moved
    hold_head_lock(repo)
    logged, head = (repo / ".git/logs/HEAD").read_bytes(), git(repo, "rev-parse", "HEAD")

    ended = go_on(run)

    assert ended.returncode == 50, ended.stderr
    assert "cannot lock ref 'HEAD'" in ended.stderr and "HEAD.lock': File exists" in ended.stderr
    assert (repo / ".git/logs/HEAD").read_bytes() == logged  # a reflog expire holding it rewrites it unhindered
    assert git(repo, "rev-parse", "HEAD") == head and (repo / ".git/HEAD.lock").exists()  # the other's, kept
    assert not (repo / ".git/index.lock").exists() and not (repo / ".git/refs/heads/main.lock").exists()
    assert git(repo, "status", "--porcelain") == ""
    (saved,) = (repo / ".autoresearch/runs/exp").glob("*-c0002/candidate.patch")
    assert "+" in saved.read_text() and str(saved) in ended.stderr  # the candidate the eval kept, not lost
    (repo / ".git/HEAD.lock").unlink()  # the other git done
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_reflog_expire_while_the_keep_holds_head_lock_is_refused_and_the_keeps_line_stays(tmp_path):
    repo = make(tmp_path)
    run = stopped_at(repo, "head-locked")
    expire = subprocess.run(
        ["git", "reflog", "expire", "--expire=all", "--expire-unreachable=all", "HEAD"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    ended = go_on(run)
    assert expire.returncode != 0 and "HEAD.lock" in expire.stderr
    assert ended.returncode == 0, ended.stderr
    assert_same_as_uninterrupted(repo)
    kept = git(repo, "log", "--format=%H", "--grep=cycle 2:").strip()
    assert kept in (repo / ".git/logs/HEAD").read_text()


def test_a_kill_while_the_keep_holds_head_lock_is_repaired_by_the_next_run(tmp_path):
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: "head-locked:1"})
    assert crashed.returncode == -signal.SIGKILL
    assert (repo / ".git/HEAD.lock").exists()  # a user's `git commit` now fails: the next start removes it
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "removed .git/HEAD.lock" in resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_head_lock_a_live_git_of_the_user_holds_after_a_kill_is_never_removed(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run", env={ENV: "direct-index-written:1"}).returncode == -signal.SIGKILL  # the write noted
    users = subprocess.Popen(["git", "cat-file", "--batch"], cwd=repo, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    hold_head_lock(repo)  # taken by the user's git since the note
    resumed = daemon(repo, "run")
    log = repo / ".autoresearch/runs/exp/_autoresearch/daemon.log"
    wait_for(lambda: "waiting for the git processes" in log.read_text())
    assert (repo / ".git/HEAD.lock").exists()  # still the live git's: waited for, not taken
    (repo / ".git/HEAD.lock").unlink()  # the user's git done: its lock removed, then it exits
    users.communicate(b"")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    assert "HEAD.lock" not in stderr
    assert_same_as_uninterrupted(repo)


@pytest.mark.parametrize("packed", [False, True], ids=["branchmove", "libgit2"])
def test_both_ways_of_moving_the_branch_refuse_a_held_head_lock_and_write_nothing(tmp_path, packed):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    if packed:  # a branch only in packed-refs: libgit2 moves it
        git(repo, "pack-refs", "--all")
    (repo / "a.txt").write_text("b\n")
    hold_head_lock(repo)
    before = [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "logs/refs/heads/main", "index")]
    head = git(repo, "rev-parse", "HEAD")
    with pytest.raises(IntegrityError, match="cannot lock ref 'HEAD'"):
        direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "logs/refs/heads/main", "index")] == before
    assert git(repo, "rev-parse", "HEAD") == head
    assert sorted(p.name for p in (repo / ".git").rglob("*.lock")) == ["HEAD.lock"]  # the other's, and no other


@pytest.mark.parametrize("packed", [False, True], ids=["branchmove", "libgit2"])
def test_a_keep_leaves_no_head_lock_and_gits_reflog(tmp_path, packed):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    if packed:
        git(repo, "pack-refs", "--all")
    (repo / "a.txt").write_text("b\n")
    sha = direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert git(repo, "rev-parse", "HEAD").strip() == sha and not list((repo / ".git").rglob("*.lock"))
    assert git(repo, "reflog", "-1", "--format=%H %gs", "HEAD") == f"{sha} commit: kept\n"


def test_head_lock_is_removed_when_the_move_fails_and_head_must_still_name_the_branch(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    with pytest.raises(OSError), branchmove.head_locked(str(repo / ".git"), "refs/heads/main"):
        raise OSError("a full disk")
    assert not (repo / ".git/HEAD.lock").exists()
    (repo / ".git/HEAD").write_text("ref:  refs/heads/main")  # a hand edit git reads as the same symref
    with branchmove.head_locked(str(repo / ".git"), "refs/heads/main"):
        assert (repo / ".git/HEAD.lock").exists()
    git(repo, "checkout", "-q", "-b", "other")  # HEAD names another branch than the KEEP's
    with pytest.raises(IntegrityError, match="HEAD has been racily updated"):
        with branchmove.head_locked(str(repo / ".git"), "refs/heads/main"):
            pytest.fail("moved under a HEAD that names another branch")
    assert not (repo / ".git/HEAD.lock").exists()
