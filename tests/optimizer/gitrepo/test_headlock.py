"""The KEEP locks HEAD as git's commit does (`HEAD.lock`, before the branch's lock, removed last): a `git reflog
expire` of HEAD (a `git gc`), which rewrites `logs/HEAD` under that lock, can no longer rename its rewrite over
the KEEP's line; a KEEP that finds the lock another's writes nothing and ends the run with the candidate saved;
a kill while the KEEP holds it leaves it to the next start, which never takes a live git's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from autoresearch.optimizer.gitrepo import branchmove, direct
from autoresearch.optimizer.gitrepo.workspace import commit_artifact, open_workspace
from autoresearch.plumbing.critical import critical, hold
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


class Sleeps:
    """time.sleep as the lock's waits call it: each wait noted (ms), none slept; the lock another held removed
    at the `release`-th (that git done), so that the KEEP's next try finds it free."""

    def __init__(self, lock=None, release=0):
        self.lock, self.release, self.waits = lock, release, []

    def __call__(self, seconds):
        self.waits.append(round(seconds * 1000))
        if len(self.waits) == self.release:
            self.lock.unlink()


LOCKS = {  # what holds the lock, how the KEEP moves the ref: HEAD.lock or the branch's, by branchmove or libgit2
    "head-branchmove": ("HEAD.lock", ()),
    "head-libgit2": ("HEAD.lock", ("pack-refs", "--all")),
    "head-detached": ("HEAD.lock", ("checkout", "-q", "--detach")),
    "branch-branchmove": ("refs/heads/main.lock", ()),
    "branch-libgit2": ("refs/heads/main.lock", ("pack-refs", "--all")),
}


def keep_with_a_lock_held(tmp_path, case, timeout=None):
    """A repository whose artifact is changed, the lock of `case` held by another; the KEEP's workspace."""
    name, setup = LOCKS[case]
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    if setup:
        git(repo, *setup)
    if timeout is not None:
        git(repo, "config", "core.filesRefLockTimeout", timeout)
    (repo / "a.txt").write_text("b\n")
    os.close(os.open(repo / ".git" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    return repo, repo / ".git" / name


@pytest.mark.parametrize("case", LOCKS)
def test_a_ref_lock_another_releases_within_core_filesreflocktimeout_is_waited_for_as_git_waits(
    tmp_path, monkeypatch, case
):
    repo, lock = keep_with_a_lock_held(tmp_path, case)
    sleeps = Sleeps(lock, release=5)
    monkeypatch.setattr(time, "sleep", sleeps)
    sha = direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert len(sleeps.waits) == 5 and sleeps.waits[-1] >= 12  # the fifth of git's waits: 25 ms, give or take a quarter
    assert git(repo, "rev-parse", "HEAD").strip() == sha and not list((repo / ".git").rglob("*.lock"))
    assert git(repo, "reflog", "-1", "--format=%H %gs", "HEAD") == f"{sha} commit: kept\n"


@pytest.mark.parametrize("case", LOCKS)
def test_a_ref_lock_held_past_core_filesreflocktimeout_stops_the_keep_with_nothing_written(tmp_path, monkeypatch, case):
    repo, lock = keep_with_a_lock_held(tmp_path, case)
    sleeps = Sleeps()
    monkeypatch.setattr(time, "sleep", sleeps)
    before = [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "index", "HEAD")]
    with pytest.raises(IntegrityError, match=f"cannot lock ref '.*': Unable to create '{lock}': File exists"):
        direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert 100 <= sum(sleeps.waits) < 100 + sleeps.waits[-1] + 1  # git's default: 100 ms of waits, then no more
    assert [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "index", "HEAD")] == before
    assert [p.relative_to(repo / ".git") for p in (repo / ".git").rglob("*.lock")] == [lock.relative_to(repo / ".git")]


@pytest.mark.parametrize(("timeout", "waits"), [("0", 0), ("2k", 2048), ("0x20", 32)])
def test_core_filesreflocktimeout_is_read_as_git_reads_it(tmp_path, monkeypatch, timeout, waits):
    repo, _ = keep_with_a_lock_held(tmp_path, "head-branchmove", timeout)
    sleeps = Sleeps()
    monkeypatch.setattr(time, "sleep", sleeps)
    with pytest.raises(IntegrityError, match="cannot lock ref 'HEAD'"):
        direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert waits <= sum(sleeps.waits) <= waits + max(sleeps.waits, default=0)
    assert max(sleeps.waits, default=0) <= 1250  # git's longest wait: a second, give or take a quarter


@pytest.mark.parametrize("timeout", ["abc", "08", "1 ", "3g"])
def test_a_core_filesreflocktimeout_git_refuses_leaves_the_commit_to_git(tmp_path, timeout):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    git(repo, "config", "core.filesRefLockTimeout", timeout)
    (repo / "a.txt").write_text("b\n")
    assert direct.commit(open_workspace(repo, "a.txt"), "kept") is None  # git says "bad numeric config value"
    assert git(repo, "rev-list", "--count", "HEAD") == "1\n" and (repo / "a.txt").read_text() == "b\n"


def test_a_stop_set_aside_ends_an_endless_wait_for_a_lock(tmp_path, monkeypatch):
    repo, _ = keep_with_a_lock_held(tmp_path, "head-branchmove", "-1")  # git: try until the lock is free
    sleeps = Sleeps()
    monkeypatch.setattr(time, "sleep", sleeps)
    monkeypatch.setattr(signal, "getsignal", lambda signum: signal.SIG_IGN)  # the set-aside signal is not raised
    with critical(), pytest.raises(IntegrityError, match="cannot lock ref 'HEAD'"):
        hold(signal.SIGTERM)  # a `kill` of the daemon while it waits
        direct.commit(open_workspace(repo, "a.txt"), "kept")
    assert sleeps.waits == []


def test_a_head_that_is_a_link_is_left_to_git_which_writes_the_branchs_reflog_too(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    (repo / ".git/HEAD").unlink()
    (repo / ".git/HEAD").symlink_to("refs/heads/main")  # core.preferSymlinkRefs: git reads it as naming main
    (repo / "a.txt").write_text("b\n")
    logs = [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "logs/refs/heads/main")]
    assert direct.commit(open_workspace(repo, "a.txt"), "kept") is None  # libgit2 would log HEAD's line alone
    assert [(repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "logs/refs/heads/main")] == logs
    assert git(repo, "rev-list", "--count", "HEAD") == "1\n"
    sha = commit_artifact(open_workspace(repo, "a.txt"), "kept")  # by git, then
    assert all(
        git(repo, "reflog", "-1", "--format=%H %gs", name) == f"{sha} commit: kept\n" for name in ("HEAD", "main")
    )
    assert (repo / ".git/HEAD").is_symlink()


HOLDER = """
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
print("held", flush=True)
sys.stdin.read()
os.unlink(sys.argv[1])
os.close(fd)
"""


def test_a_lock_a_program_not_named_git_holds_open_from_elsewhere_after_a_kill_is_never_removed(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run", env={ENV: "direct-index-written:1"}).returncode == -signal.SIGKILL  # the write noted
    ide = subprocess.Popen(  # libgit2 keeps its lock open until it renames it; its process is not `git`
        [sys.executable, "-c", HOLDER, str(repo / ".git/HEAD.lock")],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert ide.stdout.readline() == "held\n"
    resumed = daemon(repo, "run")
    log = repo / ".autoresearch/runs/exp/_autoresearch/daemon.log"
    wait_for(lambda: log.exists() and "holding its locks open" in log.read_text())
    assert (repo / ".git/HEAD.lock").exists()  # still the program's: waited for, not taken
    ide.communicate("")  # its write done: the lock renamed away
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    assert "HEAD.lock" not in stderr
    assert_same_as_uninterrupted(repo)


def test_a_head_lock_removed_by_hand_while_held_does_not_fail_the_moved_branch(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    with branchmove.head_locked(str(repo / ".git"), "refs/heads/main"):
        (repo / ".git/HEAD.lock").unlink()  # `rm .git/HEAD.lock` of a user who thought it stale
    assert not (repo / ".git/HEAD.lock").exists()
