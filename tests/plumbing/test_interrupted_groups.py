"""No process of an interrupted command outlives it: its whole group is killed, and a sandbox stays in it.

Found by sending SIGTERM to `autoresearch run` (a sandboxed command mutator) at random moments: 3 runs of about
230 left a bwrap running after the daemon had exited, its parent gone, deaf to SIGTERM. The daemon SIGTERMs an
interrupted command's group and waited only for the command: a member that ignores SIGTERM, as the init of a
sandbox's PID namespace does for a signal from outside it, went on; and with `--new-session` that init was not
even in the group, left to `--die-with-parent`, which misses a bwrap killed before it asked for that signal.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import uuid

from autoresearch.plumbing import process
from autoresearch.plumbing.sandbox import Sandbox
from tests.helpers.procs import ended, running, survivors
from tests.helpers.scenario import wait_for

# the command starts a member that ignores SIGTERM, waits until it has, then SIGTERMs the daemon
SCRIPT = """
import os, sys
from pathlib import Path
from autoresearch.optimizer import signals
from autoresearch.plumbing import process
from autoresearch.plumbing.errors import Interrupted

folder = Path(sys.argv[1])
member = 'trap "" TERM; echo $$ > member.pid; exec sleep 600'
command = f"sh -c '{member}' & while [ ! -s member.pid ]; do :; done; kill -TERM {os.getpid()}; wait"
signals.install()
try:
    process.run(command, cwd=folder, log_prefix=folder / "logs" / "mutator")
    print("went on")
except Interrupted:
    print("interrupted")
"""


def test_an_interrupted_commands_group_is_killed_whole_a_member_that_ignores_sigterm_too(tmp_path):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=60)
    member = int((tmp_path / "member.pid").read_text())
    try:
        assert done.stdout == "interrupted\n", done.stderr
        wait_for(lambda: ended(member), timeout=10)
    finally:
        if not ended(member):
            os.kill(member, signal.SIGKILL)


def test_every_process_of_a_sandboxed_command_is_in_the_group_the_daemon_kills(tmp_path):
    marker = f"in-group-{uuid.uuid4().hex}"
    box = Sandbox(writable=(tmp_path,))
    argv = box.argv(["/bin/sh", "-c", f"touch {tmp_path}/ready; sleep 600", marker], tmp_path)
    prefix = tmp_path / "logs" / "mutator"
    runner = threading.Thread(target=process.run, args=(argv,), kwargs={"cwd": tmp_path, "log_prefix": prefix})
    runner.start()
    try:
        wait_for(lambda: (tmp_path / "ready").exists(), timeout=30)
        group = int(prefix.with_name("mutator.pgid").read_text())
        members = {pid: _group_of(pid) for pid in running(marker)}
        assert len(members) >= 3 and set(members.values()) == {group}, members  # bwrap, its PID-1 bwrap, the sh
        process.end_all()
        runner.join(timeout=30)
        wait_for(lambda: all(ended(pid) for pid in members), timeout=10)
    finally:
        process.end_all()
        runner.join(timeout=30)
        survivors(marker)


def _group_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[2])
