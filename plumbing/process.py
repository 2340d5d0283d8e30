"""The one way the project runs a command: in its own session, output to files, killed as a group.

Output goes to files rather than pipes so a chatty eval can never block on a
full pipe, and so the logs stay in the run directory for the user to read.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing.critical import critical
from autoresearch.plumbing.redact import redact

GRACE_S = 5.0
PGID_SUFFIX = ".pgid"


@dataclass(frozen=True)
class Completed:
    returncode: int | None  # None when it was killed for its timeout
    stdout: str
    stderr: str
    duration_s: float

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def run(
    command: str | list[str],
    *,
    cwd: Path,
    log_prefix: Path,
    timeout_s: float | None = None,
    env: dict[str, str] | None = None,
) -> Completed:
    """Run `command` (a shell string or an argv list); stdout/stderr go to `<log_prefix>.stdout.log`/`.stderr.log`.

    Any exception while waiting (Ctrl-C, SIGTERM turned into an exception, a
    timeout) kills the whole process group before it propagates, so no eval
    or mutator outlives the daemon. What is left in the group once the command
    has exited (a `&` of a mutator's, `server &`) is killed too: it would go on
    writing while the scope guard has already looked, and while the eval runs.
    """
    log_prefix.parent.mkdir(parents=True, exist_ok=True)
    out_path = log_prefix.with_name(log_prefix.name + ".stdout.log")
    err_path = log_prefix.with_name(log_prefix.name + ".stderr.log")
    pgid_path = log_prefix.with_name(log_prefix.name + PGID_SUFFIX)
    started = time.monotonic()
    proc: subprocess.Popen[bytes] | None = None
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            with critical():  # a signal between the fork and here waits: the child is never left unowned
                proc = subprocess.Popen(
                    command,
                    shell=isinstance(command, str),
                    cwd=cwd,
                    env={**os.environ, **(env or {})},
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                )
                pgid_path.write_text(str(proc.pid))  # lets a restarted daemon end what a crashed one left running
            returncode: int | None = proc.wait(timeout=timeout_s)
            end_leftovers(proc)
        except subprocess.TimeoutExpired:
            assert proc is not None  # only its wait times out
            kill_group(proc)
            returncode = None
        except BaseException:
            if proc is not None:
                kill_group(proc)
            raise
        finally:
            pgid_path.unlink(missing_ok=True)
    return Completed(
        returncode,
        out_path.read_text(encoding="utf-8", errors="replace"),
        err_path.read_text(encoding="utf-8", errors="replace"),
        time.monotonic() - started,
    )


def end_groups_under(folder: Path) -> None:
    """SIGKILL the process groups of the commands still running with their logs under `folder` (the
    threads waiting for them then return)."""
    for pgid_file in folder.rglob(f"*{PGID_SUFFIX}"):
        try:
            os.killpg(int(pgid_file.read_text() or 0), signal.SIGKILL)
        except (ValueError, ProcessLookupError, PermissionError, FileNotFoundError):
            pass


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, then SIGKILL what is left after a grace period."""
    for sig, wait_s in ((signal.SIGTERM, GRACE_S), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


def end_leftovers(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL what is left of the process group of a command that has exited (a group outlives its
    leader while a member lives, so its id cannot have been reused)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def tail(text: str, limit: int = 300) -> str:
    """The end of a command's output on one line, for error messages, with secrets masked (before
    the cut, so that half a key is never shown)."""
    flat = redact(" ".join(text.split()))
    return flat if len(flat) <= limit else "…" + flat[-limit:]
