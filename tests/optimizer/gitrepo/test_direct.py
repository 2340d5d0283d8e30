"""The decision's git writes made in-process: the same tree, index, reflog and status as git's own commands
on the same edit, the identity git would sign with, git itself wherever in-process cannot match, and a kill
-9 at each point of the write repaired by the next run."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo import direct
from autoresearch.optimizer.gitrepo.workspace import commit_artifact, open_workspace, restore_artifact
from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import GIT_ENV, cli, git, make_repo
from tests.optimizer.startup.test_config_reread import go_on, stopped_at
from tests.optimizer.startup.test_crash import assert_same_as_uninterrupted, kill_at_then_resume, make

FILES = {"d/p.md": "one\n", "x.txt": "x\n", "e/f.txt": "f\n", "z.txt": "z\n"}
MESSAGE = "autoresearch cycle 2:  fix   a "


def twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two equal repositories, each with the user's staged change and the same candidate in the tree."""
    made = []
    for name in ("ours", "gits"):
        repo = make_repo(tmp_path / name, FILES)
        git(repo, "commit", "-q", "--allow-empty", "-m", "second")  # a cache tree and a branch with history
        (repo / "x.txt").write_text("staged by the user\n")
        git(repo, "add", "x.txt")
        (repo / "d/p.md").write_text("two\n")
        made.append(repo)
    return made[0], made[1]


def index_entries(repo: Path) -> str:
    return git(repo, "ls-files", "-s", "--debug")


def without_times(entries: str) -> list[str]:
    """`ls-files --debug` without the status fields a file made at another moment differs in."""
    return [line for line in entries.splitlines() if not line.strip().startswith(("ctime:", "mtime:", "dev:"))]


def commit_raw(repo: Path) -> list[str]:
    """HEAD's commit object, the committer's time left out (the two commits are made at other moments)."""
    lines = git(repo, "cat-file", "commit", "HEAD").splitlines()
    kept = [line for line in lines if not line.startswith("parent ")]  # the twins' first commits differ in time
    return [" ".join(line.split()[:-2]) if line.startswith("committer ") else line for line in kept]


def test_a_keep_commits_what_git_commit_only_commits_and_leaves_the_same_index_and_reflog(tmp_path, monkeypatch):
    ours, gits = twins(tmp_path)
    monkeypatch.setenv("GIT_AUTHOR_DATE", "1700000000 +0130")
    ws = open_workspace(ours, "d/p.md")
    assert direct.commit(ws, MESSAGE) is not None
    git(gits, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--only", "-m", MESSAGE, "--", "d/p.md")
    for what in (("rev-parse", "HEAD^{tree}"), ("status", "--porcelain"), ("reflog", "--format=%gs %gn %ge")):
        assert git(ours, *what) == git(gits, *what), what
    assert git(ours, "reflog", "--format=%gs", "main") == git(gits, "reflog", "--format=%gs", "main")
    assert commit_raw(ours) == commit_raw(gits)
    assert "author Test <test@example.com> 1700000000 +0130" in commit_raw(ours)
    assert without_times(index_entries(ours)) == without_times(index_entries(gits))
    assert git(ours, "show", ":x.txt") == "staged by the user\n"  # the user's staged change: still staged
    assert git(ours, "diff", "--cached", "--name-only", "HEAD") == "x.txt\n"  # and not in the commit
    assert git(ours, "fsck", "--strict", "--no-dangling").strip() == ""
    assert not (ours / ".git/index.lock").exists() and not (ours / ".git/refs/heads/main.lock").exists()
    # the artifact's entry has its file's status: git's plumbing, which never refreshes, sees it unchanged
    assert subprocess.run(["git", "diff-files", "--quiet"], cwd=ours).returncode == 0


def test_the_identity_is_gits_from_the_environment_or_from_the_configuration(tmp_path, monkeypatch):
    ours, gits = twins(tmp_path)
    for key in GIT_ENV:
        monkeypatch.delenv(key)
    for repo in (ours, gits):
        git(repo, "config", "author.name", "An Author")
        git(repo, "config", "committer.email", "committer@example.com")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "from-env@example.com")
    assert direct.commit(open_workspace(ours, "d/p.md"), "kept") is not None
    subprocess.run(["git", "commit", "-q", "--only", "-m", "kept", "--", "d/p.md"], cwd=gits, check=True)
    show = ("log", "-1", "--format=%an <%ae> | %cn <%ce>")
    assert git(ours, *show) == git(gits, *show) == "An Author <from-env@example.com> | Test <committer@example.com>\n"
    assert git(ours, "reflog", "-1", "--format=%gn %ge") == "Test committer@example.com\n"


def test_a_detached_head_is_committed_as_git_does(tmp_path):
    ours, gits = twins(tmp_path)
    for repo in (ours, gits):
        git(repo, "checkout", "-q", "--detach")
    assert direct.commit(open_workspace(ours, "d/p.md"), "kept") is not None
    git(gits, "commit", "-q", "--only", "-m", "kept", "--", "d/p.md")
    assert git(ours, "rev-parse", "HEAD^{tree}") == git(gits, "rev-parse", "HEAD^{tree}")
    assert git(ours, "reflog", "-1", "--format=%gs") == git(gits, "reflog", "-1", "--format=%gs") == "commit: kept\n"
    assert git(ours, "rev-parse", "main") == git(ours, "rev-parse", "HEAD~1")  # the branch left where it was


def test_a_drop_restores_what_git_checkout_restores_and_leaves_the_index_clean(tmp_path):
    ours, gits = twins(tmp_path)
    ws = open_workspace(ours, "d/p.md")  # as the run opened it
    for repo in (ours, gits):
        (repo / "d/p.md").unlink()
        (repo / "d/p.md").symlink_to("../x.txt")  # a link now where the file was: never written through
        git(repo, "update-index", "--chmod=+x", "z.txt")
    assert direct.restore(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    for repo in (ours, gits):
        assert (repo / "d/p.md").read_text() == "one\n" and not (repo / "d/p.md").is_symlink()
        assert (repo / "x.txt").read_text() == "staged by the user\n"
    assert git(ours, "status", "--porcelain") == git(gits, "status", "--porcelain")
    assert without_times(index_entries(ours))[:2] == without_times(index_entries(gits))[:2]
    assert git(ours, "ls-files", "-s") == git(gits, "ls-files", "-s")
    assert (ours / "d/p.md").stat().st_mode == (gits / "d/p.md").stat().st_mode


def test_a_drop_puts_back_an_artifact_the_user_staged_in_the_index_too(tmp_path):
    ours, gits = twins(tmp_path)
    for repo in (ours, gits):
        git(repo, "add", "d/p.md")
        (repo / "d/p.md").write_text("three\n")
    assert direct.restore(open_workspace(ours, "d/p.md"))
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    assert git(ours, "ls-files", "-s") == git(gits, "ls-files", "-s")
    assert git(ours, "status", "--porcelain") == git(gits, "status", "--porcelain") == "M  x.txt\n"
    assert without_times(index_entries(ours)) == without_times(index_entries(gits))
    assert git(ours, "fsck", "--strict", "--no-dangling").strip() == ""


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param(lambda repo, mp: git(repo, "config", "commit.gpgSign", "true"), id="gpgsign"),
        pytest.param(lambda repo, mp: git(repo, "config", "core.autocrlf", "input"), id="autocrlf"),
        pytest.param(lambda repo, mp: git(repo, "update-index", "--split-index"), id="split-index"),
        pytest.param(lambda repo, mp: git(repo, "update-index", "--skip-worktree", "d/p.md"), id="skip-worktree"),
        pytest.param(lambda repo, mp: (repo / ".gitattributes").write_text("*.md ident\n"), id="ident-attribute"),
        pytest.param(lambda repo, mp: mp.setenv("GIT_INDEX_FILE", str(repo / ".git/index")), id="git-env"),
        pytest.param(lambda repo, mp: mp.setenv("GIT_COMMITTER_DATE", "@1700000000 +0000"), id="committer-date"),
        pytest.param(lambda repo, mp: mp.setenv("GIT_AUTHOR_EMAIL", " <a@example.com>"), id="an-email-git-cleans"),
        pytest.param(lambda repo, mp: (repo / ".git/MERGE_HEAD").write_text("0" * 40 + "\n"), id="merging"),
        pytest.param(
            lambda repo, mp: (
                git(repo, "update-ref", "refs/remotes/x", "HEAD"),
                git(repo, "symbolic-ref", "HEAD", "refs/remotes/x"),
            ),
            id="head-not-a-branch",
        ),
        pytest.param(lambda repo, mp: (repo / ".git/index.lock").write_text(""), id="index-locked"),
    ],
)
def test_git_itself_commits_where_in_process_could_not_match_it(tmp_path, monkeypatch, setup):
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "d/p.md").write_text("two\n")
    setup(repo, monkeypatch)
    ws = open_workspace(repo, "d/p.md")
    before = git(repo, "rev-parse", "HEAD")
    assert direct.commit(ws, "kept") is None
    assert git(repo, "rev-parse", "HEAD") == before and not (repo / ".git/refs/heads/main.lock").exists()
    assert git(repo, "diff", "--cached", "--name-only") == ""  # nothing staged by the attempt


def test_git_itself_restores_where_in_process_could_not_match_it(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "d/p.md").write_text("two\n")
    git(repo, "config", "core.eol", "crlf")
    assert not direct.restore(open_workspace(repo, "d/p.md"))
    assert (repo / "d/p.md").read_text() == "two\n"
    git(repo, "config", "--unset", "core.eol")
    ws = open_workspace(repo, "d/p.md")
    (repo / "d/p.md").unlink()
    (repo / "d/p.md").mkdir()  # a folder where the file was: git removes it, with what it holds
    assert not direct.restore(ws)


def test_the_workspace_falls_back_to_git_and_still_commits_and_restores(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "r", FILES)
    git(repo, "config", "commit.gpgSign", "false")
    git(repo, "config", "core.autocrlf", "input")  # in-process declines; git's commit is the same here
    ws = open_workspace(repo, "d/p.md")
    (repo / "d/p.md").write_text("two\n")
    sha = commit_artifact(ws, "kept")
    assert sha == git(repo, "rev-parse", "HEAD").strip() and git(repo, "status", "--porcelain") == ""
    (repo / "d/p.md").write_text("three\n")
    restore_artifact(ws)
    assert (repo / "d/p.md").read_text() == "two\n" and git(repo, "status", "--porcelain") == ""


POINTS = [
    ("direct-objects-written", 1),
    ("direct-index-written", 1),
    ("direct-index-written", 2),
    ("branchmove-logged", 1),
    ("direct-ref-updated", 1),
    ("direct-scratch-written", 1),
    ("direct-file-written", 1),
]


@pytest.mark.parametrize("point, n", POINTS, ids=[f"{p}-{n}" for p, n in POINTS])
def test_a_kill_inside_an_in_process_write_is_repaired_by_the_next_run(tmp_path, point, n):
    repo = make(tmp_path)
    kill_at_then_resume(repo, point, n)
    assert git(repo, "fsck", "--no-dangling").strip() == ""
    assert not list((repo / ".git").rglob("*.lock")) or all(
        "autoresearch" in p.parts for p in (repo / ".git").rglob("*.lock")
    )


def test_an_index_lock_left_by_a_killed_in_process_commit_is_cleared_by_the_next_run(tmp_path):
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: "direct-objects-written:1"})
    assert crashed.returncode == -signal.SIGKILL
    assert (repo / ".git/index.lock").exists()  # taken by the commit, as git takes it
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "removed .git/index.lock, left by `git commit --only` killed mid-write" in resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_kill_after_the_reflog_lines_before_the_branch_moved_is_cleared_by_the_next_run(tmp_path):
    """Killed with both reflog lines appended and the branch's lock not yet renamed (git's files backend
    appends them at the same place): the branch still names the parent, the next start removes both locks,
    and the reflogs keep the line of a commit the branch never named, as git's would."""
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: "branchmove-logged:1"})
    assert crashed.returncode == -signal.SIGKILL
    logged = (repo / ".git/logs/HEAD").read_text().splitlines()[-1].split()[1]
    assert (repo / ".git/refs/heads/main.lock").exists() and logged != git(repo, "rev-parse", "HEAD").strip()
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "removed .git/refs/heads/main.lock" in resumed.stderr
    assert_same_as_uninterrupted(repo)
    assert logged in git(repo, "reflog", "--format=%H") and git(repo, "fsck", "--no-dangling").strip() == ""


def test_a_users_commit_while_the_keep_moves_the_branch_fails_on_the_index_lock(tmp_path):
    """The in-process KEEP holds `index.lock` until the branch has moved, as git's commit does: a user's
    `git commit` meanwhile is refused (it took the staged candidate, and the run then ended with exit 50)."""
    repo = make(tmp_path)
    run = stopped_at(repo, "direct-index-written")
    users = subprocess.run(
        ["git", "commit", "-q", "-m", "mine"], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    )
    resumed = go_on(run)
    assert users.returncode != 0 and "index.lock" in users.stderr
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_kill_once_the_keep_moved_the_branch_finishes_its_index(tmp_path):
    """Killed between the branch's move and the index's rename: the next start renames the lock, which holds
    the new index, over the index (removed, the index would stage the artifact's old text against HEAD)."""
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: "direct-ref-updated:1"})
    assert crashed.returncode == -signal.SIGKILL
    assert (repo / ".git/index.lock").exists()
    assert git(repo, "diff", "--cached", "--name-only").strip() == "prompt.md"  # the old index against HEAD
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "finished .git/index, left by `git commit --only` killed mid-write" in resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_run_commits_in_process_with_no_git_commit_and_no_hook(tmp_path):
    repo = make(tmp_path)
    for name in ("pre-commit", "commit-msg", "post-commit", "post-checkout"):
        (repo / ".git/hooks" / name).write_text("#!/bin/sh\ntouch hook-ran\nexit 1\n")
        (repo / ".git/hooks" / name).chmod(0o755)
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    log = tmp_path / "gits"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {subprocess.getoutput("command -v git")} "$@"\n')
    wrapper.chmod(0o755)
    assert cli(repo, "run", env={"PATH": f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}"}).returncode == 0
    assert_same_as_uninterrupted(repo)
    assert not (repo / "hook-ran").exists()
    started = log.read_text() if log.exists() else ""
    assert " commit " not in f" {started} " and "checkout HEAD" not in started


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_an_artifact_that_is_no_longer_a_regular_file_is_committed_by_git_not_read_through(tmp_path, kind):
    repo = make_repo(tmp_path / "r", FILES)
    ws = open_workspace(repo, "d/p.md")  # as the run opened it
    (repo / "d/p.md").unlink()
    if kind == "link":
        (repo / "d/p.md").symlink_to("../x.txt")
    else:
        os.mkfifo(repo / "d/p.md")  # opening it for reading never blocks the daemon
    assert direct.commit(ws, "kept") is None
    assert git(repo, "log", "--format=%s") == "initial\n" and git(repo, "status", "--porcelain", "x.txt") == ""


def test_an_artifact_that_is_heads_already_is_not_committed(tmp_path):
    """Found unchanged from the bytes the KEEP reads (workspace.commit_artifact no longer asks first): nothing
    written, HEAD and the index as they were; git's `commit --only` would refuse it (nothing to commit)."""
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "d/p.md").write_text("one\n")  # rewritten with HEAD's bytes: a new file status, the same blob
    ws = open_workspace(repo, "d/p.md")
    head, index = git(repo, "rev-parse", "HEAD"), (repo / ".git/index").read_bytes()
    assert direct.commit(ws, "kept") is direct.UNCHANGED
    assert commit_artifact(ws, "kept") is None
    assert (git(repo, "rev-parse", "HEAD"), (repo / ".git/index").read_bytes()) == (head, index)


def test_a_drop_of_an_artifact_that_is_heads_already_writes_nothing(tmp_path):
    """Found unchanged from the bytes the DROP reads (workspace.restore_artifact no longer asks first) and the
    index entry's status: the file and the index untouched, as by git's checkout. (HEAD's bytes written anew:
    tests/optimizer/gitrepo/test_direct_shapes.py, the entry's status written as git writes it.)"""
    repo = make_repo(tmp_path / "r", FILES)
    ws = open_workspace(repo, "d/p.md")
    file, index = os.stat(repo / "d/p.md"), (repo / ".git/index").read_bytes()
    assert direct.restore(ws) is direct.UNCHANGED
    restore_artifact(ws)
    assert os.stat(repo / "d/p.md").st_ino == file.st_ino
    assert (repo / ".git/index").read_bytes() == index


@pytest.fixture
def west_of_utc(monkeypatch):
    """A local time zone three and a half hours behind UTC, for this process and the git it runs."""
    monkeypatch.setenv("TZ", "ABC+03:30")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def last_reflog_line(repo: Path, name: str) -> tuple[int, str]:
    """A reflog file's lines counted, and its last one with its commits named as HEAD~1 and HEAD and its seconds
    left out (the twins' commits are made at other moments)."""
    lines = (repo / ".git/logs" / name).read_text().splitlines(keepends=True)
    old, new = git(repo, "rev-parse", "HEAD~1", "HEAD").split()
    return len(lines), re.sub(r"> \d+ ", "> SECONDS ", lines[-1]).replace(old, "OLD").replace(new, "NEW")


@pytest.mark.parametrize("state", ["plain", "packed", "branch-log-missing", "head-log-missing"])
def test_a_keep_moves_the_branch_and_writes_the_reflogs_byte_for_byte_as_git(tmp_path, west_of_utc, state):
    """branchmove writes the plain case (the loose ref, both reflogs there); libgit2 the others, as git would:
    the ref, the packed refs and both reflogs' bytes the same as git's commit leaves them, but the seconds."""
    ours, gits = twins(tmp_path)
    for repo in (ours, gits):
        if state == "packed":
            git(repo, "pack-refs", "--all")
        elif state != "plain":
            (repo / ".git/logs" / ("refs/heads/main" if state == "branch-log-missing" else "HEAD")).unlink()
    assert direct.commit(open_workspace(ours, "d/p.md"), MESSAGE) is not None
    git(gits, "-c", "core.hooksPath=/dev/null", "commit", "-q", "--only", "-m", MESSAGE, "--", "d/p.md")
    assert git(ours, "rev-parse", "HEAD^{tree}") == git(gits, "rev-parse", "HEAD^{tree}")
    for name in ("HEAD", "refs/heads/main"):
        assert last_reflog_line(ours, name) == last_reflog_line(gits, name), name
        assert (
            last_reflog_line(ours, name)[1]
            == "OLD NEW Test <test@example.com> SECONDS -0330\tcommit: autoresearch cycle 2: fix a\n"
        )
    for repo in (ours, gits):
        assert (repo / ".git/refs/heads/main").read_text() == git(repo, "rev-parse", "HEAD")
    assert not (ours / ".git/refs/heads/main.lock").exists()
    assert ((ours / ".git/packed-refs").exists(), (gits / ".git/packed-refs").exists()) == (state == "packed",) * 2
