"""A disk with no room for a record (full, over a quota or a file-size limit, failing) stops the run with one
line naming the file and exit 50, leaving HEAD the last decision and whole lines only; with room again, `run`
resumes. The limit is RLIMIT_FSIZE on the daemon: write(2) then fails with EFBIG as on a full disk (ENOSPC),
with no disk to fill."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import pytest

from tests.helpers.repos import GIT_ENV, cli, git
from tests.optimizer.startup.test_crash import assert_consistent_after_crash, assert_same_as_uninterrupted, make


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
    assert git(repo, "status", "--porcelain") == ""
    assert_consistent_after_crash(repo)
    assert first in git(repo, "rev-list", "HEAD")  # HEAD the original or a KEEP made from it

    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)
