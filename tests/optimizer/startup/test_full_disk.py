"""A disk with no room for a record (full, over a quota or a file-size limit, failing) stops the run with one
line naming the file and exit 50, leaving HEAD the last decision and whole lines only; with room again, `run`
resumes. The limit is RLIMIT_FSIZE on the daemon: write(2) then fails with EFBIG as on a full disk (ENOSPC),
with no disk to fill."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys

import pytest

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import GIT_ENV, cli, git
from tests.optimizer.startup.test_crash import (
    assert_consistent_after_crash,
    assert_same_as_uninterrupted,
    lines_of,
    make,
)


def _limited(limit: int):
    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, not the signal's default death
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_file_size


@pytest.mark.parametrize("limit", [200, 3_000, 25_000])  # .git/info/exclude; the first chart; the guard's backups
def test_a_disk_with_no_room_for_a_record_is_one_line_and_exit_50_and_run_resumes(tmp_path, limit):
    repo = make(tmp_path)
    first = git(repo, "rev-parse", "HEAD")

    full = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        preexec_fn=_limited(limit),
    )

    assert full.returncode == 50, full.stderr
    assert "Traceback" not in full.stderr
    (said,) = [line for line in full.stderr.splitlines() if line.startswith("autoresearch:")]
    assert said.startswith(f"autoresearch: cannot write {repo}/") and "File too large" in said, said
    assert said.endswith("free some space, then `run` resumes"), said
    assert git(repo, "status", "--porcelain") == ""
    assert_consistent_after_crash(repo)
    assert first in git(repo, "rev-list", "HEAD")  # HEAD the original or a KEEP made from it

    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)


@pytest.mark.parametrize(
    "limit, ending",
    [
        (500, "then `run` records the end of the run, which had finished (max_cycles)"),  # state.json
        (5_000, "then `chart` writes the page of the run, which has finished (max_cycles)"),  # the final page
    ],
    ids=["state", "page"],
)
def test_a_disk_with_no_room_for_the_end_of_a_finished_run_says_what_follows_not_that_it_resumes(
    tmp_path, limit, ending
):
    """The run reached its stop rule, then found no room for its end: it said `run` resumes, but a finished run
    does not (with its end on disk, `run` starts a new one). The limit is set once the run stopped, so every
    cycle's record is written."""
    repo = make(tmp_path)
    stopped = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV, ENV: "before-finish:1:SIGSTOP"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limited(resource.RLIM_INFINITY),
    )
    _, status = os.waitpid(stopped.pid, os.WUNTRACED)  # until it stops itself at the point
    assert os.WIFSTOPPED(status), status
    resource.prlimit(stopped.pid, resource.RLIMIT_FSIZE, (limit, limit))
    os.kill(stopped.pid, signal.SIGCONT)
    _, stderr = stopped.communicate()

    assert stopped.returncode == 50, stderr
    (said,) = [line for line in stderr.splitlines() if line.startswith("autoresearch:")]
    assert said.endswith(f"free some space, {ending}"), said
    assert "`run` resumes" not in said
    cycles = len(lines_of(repo))
    follows = cli(repo, *ending.split("`")[1].split())  # as the message says, with room again
    assert follows.returncode == 0, follows.stderr
    assert len(lines_of(repo)) == cycles  # no cycle more: the run had ended
    state = json.loads((repo / ".autoresearch/runs/exp/_autoresearch/state.json").read_text())
    assert (state["status"], state["stop_reason"]) == ("finished", "max_cycles")
    assert (
        '<div class="value">finished</div>'
        in (repo / ".autoresearch/runs/exp/_autoresearch/trajectory.html").read_text()
    )
