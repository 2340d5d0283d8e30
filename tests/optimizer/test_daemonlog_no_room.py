"""daemon.log on a disk with no room: its lines are lost without a traceback, and closing it raises nothing (the
run's records stop the run with one line and exit 50). The limit is RLIMIT_FSIZE in a child: EFBIG as ENOSPC."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

LOG_PAST_THE_LIMIT = """
import resource, signal, sys
from pathlib import Path
from autoresearch.optimizer import daemonlog
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
daemonlog.setup(Path(sys.argv[1]), console=False)
log = daemonlog.Logger("autoresearch")
for n in range(100):
    log.info("a line", n=n)
daemonlog.setup(None, console=False)  # closes daemon.log, as the next command's setup does
print("closed")
"""


def test_log_lines_a_full_disk_has_no_room_for_are_lost_without_a_traceback_and_the_log_closes(tmp_path):
    log = tmp_path / "daemon.log"
    done = subprocess.run([sys.executable, "-c", LOG_PAST_THE_LIMIT, str(log)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "closed\n", "")
    assert 0 < log.stat().st_size <= 2000


@pytest.mark.parametrize("command", ["run", "validate"])
def test_a_results_directory_mounted_read_only_stops_run_with_one_line_and_exit_50(tmp_path, command):
    """Opening daemon.log there was a traceback and exit 1; `validate`, which makes run's checks, passed it.
    bubblewrap mounts the folder read-only (EROFS), as a remount or a failing disk does; the tests run as root,
    whom a mode of 0555 does not stop."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {}}, config={"stop": {"max_cycles": 1}})
    assert cli(repo, "run").returncode == 10
    results = str(repo / ".autoresearch")
    before = (git(repo, "rev-parse", "HEAD"), iterations(repo))

    done = subprocess.run(
        [
            "bwrap",
            "--dev-bind",
            "/",
            "/",
            "--ro-bind",
            results,
            results,
            sys.executable,
            "-m",
            "autoresearch.optimizer",
            command,
        ],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
    )

    assert_one_line_error(done, 50, f"cannot write {results}/", "Read-only file system; make it writable again")
    assert (git(repo, "rev-parse", "HEAD"), iterations(repo)) == before
