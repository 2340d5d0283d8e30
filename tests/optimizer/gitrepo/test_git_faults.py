"""Signals and kills while the daemon's git writes, and the repository's hooks.

A hook gate holds one of the daemon's commits half-way (its index lock taken): a
`git` wrapper on the daemon's PATH lets the repository's prepare-commit-msg hook
run for that commit, as it would if the daemon ran hooks, so each test can land
a signal or a kill exactly inside `git commit`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import wait_for
from tests.optimizer.startup.test_crash import assert_same_as_uninterrupted, lines_of, make

WRAPPER = f"""#!{sys.executable}
import os, sys
args = sys.argv[1:]
if "commit" in args:  # let the repository's hooks run for this commit (the test's gate is one)
    args = [a.replace("core.hooksPath=/dev/null", "core.hooksPath=.git/hooks") for a in args]
os.execv({shutil.which("git")!r}, ["git", *args])
"""
GATE_HOOK = """#!/bin/sh
if [ -e armed ]; then
    rm armed
    echo $PPID > in-commit
    while [ ! -e gate ]; do sleep 0.02; done
fi
"""


def gated_repo(tmp_path):
    """A repository whose commits go through a `git` process (core.autocrlf set: the in-process commit of
    autoresearch.optimizer.gitrepo.direct leaves it to git; the artifact has no carriage return, so git's commit is
    the same), held by the gate."""
    repo = make(tmp_path)
    git(repo, "config", "core.autocrlf", "input")
    (repo / ".git/info/exclude").write_text("armed\nin-commit\ngate\n")
    hook = repo / ".git/hooks/prepare-commit-msg"
    hook.write_text(GATE_HOOK)
    hook.chmod(0o755)
    wrapper = tmp_path / "bin/git"
    wrapper.parent.mkdir()
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    (repo / "armed").touch()
    return repo, {**os.environ, **GIT_ENV, "PATH": f"{wrapper.parent}:{os.environ['PATH']}"}


def start(repo, env) -> subprocess.Popen:
    """The daemon in its own process group, as a terminal, `timeout` or systemd would run it."""
    return subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env=env,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_ctrl_c_during_a_commit_ends_in_130_with_the_keep_logged_and_the_run_resumes(tmp_path):
    repo, env = gated_repo(tmp_path)
    daemon = start(repo, env)
    wait_for(lambda: (repo / "in-commit").exists())
    os.killpg(daemon.pid, signal.SIGINT)  # the whole group, as Ctrl-C in a terminal does
    (repo / "gate").touch()
    _, stderr = daemon.communicate(timeout=60)
    assert daemon.returncode == 130, stderr
    keeps = [r for r in lines_of(repo) if r["decision"] == "keep"]
    assert keeps[-1]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert keeps[-1]["cycle"] == 2
    assert not (repo / ".git/index.lock").exists()
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_git_killed_mid_commit_leaves_a_lock_the_next_run_clears(tmp_path):
    repo, env = gated_repo(tmp_path)
    daemon = start(repo, env)
    wait_for(lambda: (repo / "in-commit").exists() and (repo / "in-commit").read_text().strip())
    killed_git = int((repo / "in-commit").read_text())
    os.killpg(daemon.pid, signal.SIGKILL)  # the service killed whole: the daemon and its git
    os.kill(killed_git, signal.SIGKILL)
    daemon.wait(timeout=30)
    wait_for(lambda: not os.path.exists(f"/proc/{killed_git}"))
    assert (repo / ".git/index.lock").exists()
    (repo / "gate").touch()
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "index.lock" in resumed.stderr and "recovered after a crash" in resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_a_lock_held_by_a_live_git_of_the_user_is_never_removed(tmp_path):
    repo, env = gated_repo(tmp_path)
    daemon = start(repo, env)
    wait_for(lambda: (repo / "in-commit").exists() and (repo / "in-commit").read_text().strip())
    os.kill(daemon.pid, signal.SIGKILL)  # the daemon dies; its git, in its own session, is still writing
    daemon.wait(timeout=30)
    resumed = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    log = repo / ".autoresearch/runs/exp/_autoresearch/daemon.log"
    wait_for(lambda: "waiting for the git processes" in log.read_text())
    assert (repo / ".git/index.lock").exists()  # still the live git's: waited for, not taken
    (repo / "gate").touch()
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr
    assert_same_as_uninterrupted(repo)


def test_the_daemons_commits_run_none_of_the_repositorys_hooks_nor_gits_maintenance(tmp_path):
    """No hook, and no `git maintenance run --auto` after a commit: a gc it detached would pack and delete
    loose objects while the next mutation runs, under the scope guard's watch."""
    repo = make(tmp_path)
    hooks = {
        "pre-commit": "#!/bin/sh\nexit 1\n",
        "prepare-commit-msg": "#!/bin/sh\necho 'rewritten by a hook' > \"$1\"\n",
        "commit-msg": "#!/bin/sh\nexit 1\n",
        "post-commit": "#!/bin/sh\ntouch hook-ran\n",
        "post-checkout": "#!/bin/sh\ntouch hook-ran\n",
    }
    for name, text in hooks.items():
        (repo / ".git/hooks" / name).write_text(text)
        (repo / ".git/hooks" / name).chmod(0o755)
    trace = tmp_path / "git-trace"  # every git process, each command as it started
    assert cli(repo, "run", env={"GIT_TRACE": str(trace)}).returncode == 0
    assert not (repo / "hook-ran").exists()
    assert_same_as_uninterrupted(repo)
    started = trace.read_text()
    assert "built-in: git commit" in started and "maintenance" not in started


def test_git_killed_under_a_live_daemon_ends_in_50_and_the_next_run_repairs(tmp_path):
    repo, env = gated_repo(tmp_path)
    daemon = start(repo, env)
    wait_for(lambda: (repo / "in-commit").exists() and (repo / "in-commit").read_text().strip())
    os.kill(int((repo / "in-commit").read_text()), signal.SIGKILL)  # the OOM killer picks git
    (repo / "gate").touch()  # (its hook, which holds git's output open, ends too)
    _, stderr = daemon.communicate(timeout=60)
    assert daemon.returncode == 50, stderr
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "index.lock" in resumed.stderr
    assert_same_as_uninterrupted(repo)
