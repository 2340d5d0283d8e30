"""daemon.log on a disk with no room: its lines are lost without a traceback, and closing it raises nothing (the
run's records stop the run with one line and exit 50). The limit is RLIMIT_FSIZE in a child: EFBIG as ENOSPC."""

from __future__ import annotations

import subprocess
import sys

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
