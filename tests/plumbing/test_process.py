"""The subprocess helper never leaves a child behind, whenever a signal lands."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from autoresearch.plumbing import process
from autoresearch.plumbing.faults import ENV
from tests.helpers.procs import ended, running
from tests.helpers.scenario import wait_for

# Runs the helper with a handler that honours held blocks (as the daemon's does). The helper's
# bookkeeping file is a FIFO, so the helper stops right after the fork until the test reads it.
CHILD = textwrap.dedent(
    """
    import signal, sys
    from pathlib import Path
    from autoresearch.plumbing.critical import hold
    from autoresearch.plumbing.process import run

    def handler(signum, frame):
        if not hold(signum):
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
    prefix = Path(sys.argv[1])
    try:
        run(["sleep", "600"], cwd=prefix.parent, log_prefix=prefix)
    except KeyboardInterrupt:
        sys.exit(130)
    """
)


def test_a_sigterm_between_the_fork_and_the_wait_ends_the_child(tmp_path):
    fifo = tmp_path / "mutate.pgid"
    os.mkfifo(fifo)
    helper = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "mutate")], cwd=os.getcwd())
    wait_for(lambda: _children(helper.pid))
    child = _children(helper.pid)[0]
    try:
        helper.send_signal(signal.SIGTERM)  # lands while the helper is still writing down the child's pid
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # lets a held write go on
        assert helper.wait(timeout=30) == 130
        os.close(reader)
        wait_for(lambda: ended(child), timeout=10)
    finally:
        if not ended(child):
            os.kill(child, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    """Those of every thread of `pid` (a child belongs to the thread that forked it)."""
    try:
        return [
            int(c)
            for task in os.listdir(f"/proc/{pid}/task")
            for c in open(f"/proc/{pid}/task/{task}/children").read().split()
        ]
    except FileNotFoundError:
        return []


def test_what_a_command_leaves_running_in_the_background_is_ended_with_it(tmp_path):
    from autoresearch.plumbing.process import run

    done = run("sleep 600 & echo $! > bg.pid", cwd=tmp_path, log_prefix=tmp_path / "logs/mutate")
    assert done.returncode == 0
    background = int((tmp_path / "bg.pid").read_text())
    try:
        wait_for(lambda: ended(background), timeout=10)
    finally:
        if not ended(background):
            os.kill(background, signal.SIGKILL)


def test_a_command_ends_with_the_process_that_started_it_even_on_sigkill(tmp_path):
    """kill -9 runs none of the helper's code (as the OOM killer, or Ray ending a worker, does): its watcher
    ends the command, which would otherwise run on in a session of its own."""
    helper, members = _running(tmp_path, "sleep 600 & sleep 600")  # the shell's two sleeps, one in the background
    _all_end(helper, members, first=[])


def test_a_watcher_started_ahead_ends_the_command_on_sigkill(tmp_path):
    """`eval` starts the watcher before reading its file (`reaper.start`), not waiting for it: the first command
    still waits for it to have forked away, and a kill -9 of the process still ends the command."""
    helper, members = _running(tmp_path, "sleep 600 & sleep 600", ahead=True)
    _all_end(helper, members, first=[])


def test_a_watcher_killed_is_followed_by_one_that_ends_the_next_command(tmp_path):
    """The pipe is written without a lock: the first write after the watcher's death fails, starts another
    watcher on the same descriptor, and that one ends the command when the process is killed."""
    script = "import sys; from pathlib import Path; from autoresearch.plumbing.process import run\n"
    script += "here = Path(sys.argv[1]); run('true', cwd=here, log_prefix=here / 'first')\n"
    script += "print('ran', flush=True); sys.stdin.readline()\n"
    script += "run('sleep 600 & sleep 600', cwd=here, log_prefix=here / 'target')"
    helper = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert helper.stdout is not None and helper.stdin is not None
    assert helper.stdout.readline() == "ran\n"
    (first,) = _watchers(helper.pid)
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: ended(first))
    helper.stdin.write("go\n")
    helper.stdin.flush()
    pgid_file = tmp_path / "target.pgid"
    wait_for(
        lambda: pgid_file.exists() and pgid_file.read_text() != "" and len(_members(int(pgid_file.read_text()))) >= 2
    )
    assert _watchers(helper.pid) and first not in _watchers(helper.pid)
    _all_end(helper, _members(int(pgid_file.read_text())), first=[])


def _watchers(pid: int) -> list[int]:
    """The watchers of process `pid` (each names it last on its command line)."""
    return [
        found
        for found, args in _processes()
        if args[-2:-1] == [str(pid).encode()] and any(arg.endswith(b"plumbing/watcher.py") for arg in args)
    ]


def test_a_command_is_seen_to_end_without_polling(tmp_path):
    """`Popen.wait` with a timeout sleeps and looks again, up to 50 ms apart, so a short command was seen to end
    late: about 25 wake-ups a second. The helper waits on the process's pidfd instead, woken once it exits."""
    before = _wakeups()
    done = process.run("sleep 1", cwd=tmp_path, log_prefix=tmp_path / "target", timeout_s=60)
    assert done.returncode == 0
    assert _wakeups() - before < 10


def _wakeups() -> int:
    """This thread's voluntary context switches: each sleep of a polling wait is one."""
    with open("/proc/thread-self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches:"))


def test_a_command_ends_with_a_process_that_kills_its_own_children_as_it_exits(tmp_path):
    """As a Ray worker does when its job ends (RAY_kill_child_processes_on_worker_exit): SIGKILL to its direct
    children, not theirs. The shell dies, the agent it started does not: the watcher ends it, not being one of
    those children."""
    helper, members = _running(tmp_path, "sleep 600; true")  # the shell, and the sleep it waits for
    _all_end(helper, members, first=_children(helper.pid))


def test_the_watcher_starts_on_the_standard_library_alone(tmp_path):
    """Every process of ours that runs a command starts a watcher: by path, under -I -S, it loads neither the
    site-packages nor a package of ours nor the parent's side (subprocess, threading), half the CPU of its start
    as `python -m autoresearch.plumbing.reaper`; and it still ends the command when the process dies."""
    helper, members = _running(tmp_path, "sleep 600")
    ours = [args for _, args in _processes() if args[-2:-1] == [str(helper.pid).encode()]]  # it names the helper
    (watcher,) = [args for args in ours if any(arg.endswith(b"plumbing/watcher.py") for arg in args)]
    assert watcher[1:3] == [b"-I", b"-S"]
    read, write = os.pipe()
    os.close(write)  # an empty pipe, closed: the watcher has nothing to end and exits
    with os.fdopen(read) as pipe:
        done = subprocess.run(
            [watcher[0], "-X", "importtime", *watcher[1:4], str(pipe.fileno())],
            pass_fds=[pipe.fileno()],
            capture_output=True,
            text=True,
        )
    assert done.returncode == 0, done.stderr
    loaded = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert loaded and not loaded & {"site", "subprocess", "threading", "autoresearch"}
    _all_end(helper, members, first=[])


def _processes() -> list[tuple[int, list[bytes]]]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            found.append((int(pid), open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")))
        except OSError:  # ended meanwhile
            continue
    return found


def _running(tmp_path, command: str, ahead: bool = False) -> tuple[subprocess.Popen, list[int]]:
    """A helper process running `command` through `process.run`, and the command's group once it has two members;
    `ahead`: the helper starts its watcher first with `reaper.start`, as `eval` does."""
    script = "import sys; from pathlib import Path; from autoresearch.plumbing.process import run\n"
    if ahead:
        script += "from autoresearch.plumbing import reaper; reaper.start()\n"
    script += f"run({command!r}, cwd=Path(sys.argv[1]), log_prefix=Path(sys.argv[1]) / 'target')"
    helper = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)])
    pgid_file = tmp_path / "target.pgid"
    wait_for(
        lambda: pgid_file.exists() and pgid_file.read_text() != "" and len(_members(int(pgid_file.read_text()))) >= 2
    )
    return helper, _members(int(pgid_file.read_text()))


def _all_end(helper: subprocess.Popen, members: list[int], first: list[int]) -> None:
    """SIGKILL to `first`, then to the helper: every member of its command's group ends."""
    try:
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        helper.kill()
        helper.wait()
        wait_for(lambda: all(ended(pid) for pid in members), timeout=15)
    finally:
        for pid in members:
            if not ended(pid):
                os.kill(pid, signal.SIGKILL)


def _members(group: int) -> list[int]:
    return [pid for pid in map(int, filter(str.isdigit, os.listdir("/proc"))) if _group(pid) == group]


def _group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


def test_a_command_is_ended_and_reaped_even_when_popens_own_lock_was_left_taken():
    """A signal's exception raised inside Popen.wait between its lock's acquire and its `try` leaves the lock
    taken (seen: a scheduler's run stopped by SIGTERM mid-eval, blocked for good in kill_group's wait)."""
    proc = subprocess.Popen(["sleep", "60"], start_new_session=True)
    assert proc._waitpid_lock.acquire(False)  # the state that exception leaves
    killing = threading.Thread(target=process.kill_group, args=(proc,), daemon=True)
    killing.start()
    killing.join(timeout=30)
    assert not killing.is_alive(), "kill_group waited on the lock for good"
    assert proc.returncode == -signal.SIGTERM  # reaped: no zombie left


@pytest.mark.parametrize("memfd", [True, False], ids=["memfd", "no-memfd"])
def test_a_command_run_without_a_log_prefix_keeps_its_output_in_memory_and_writes_no_file(tmp_path, monkeypatch, memfd):
    """A `cli` target's command, once per test: no logs and no pid file made and removed on a disk (without
    `memfd_create`, off Linux, an unnamed temporary file)."""
    if not memfd:
        monkeypatch.delattr(os, "memfd_create")
    done = process.run("echo out; echo err >&2", cwd=tmp_path, log_prefix=None)
    assert (done.returncode, done.stdout, done.stderr) == (0, "out\n", "err\n")
    assert list(tmp_path.iterdir()) == []


def test_a_process_killed_between_a_commands_start_and_its_watch_leaves_nothing_run(tmp_path):
    """SIGKILL after `Popen`, before the watcher hears of the group (Ray ends a worker 100 ms after its SIGTERM):
    the command waits at its gate for the daemon's go, sees the gate close instead, and never runs."""
    ran = tmp_path / "ran"
    command = f"touch {ran}; sleep 600 & wait"
    script = "import sys; from pathlib import Path; from autoresearch.plumbing.process import run\n"
    script += f"run({command!r}, cwd=Path(sys.argv[1]), log_prefix=Path(sys.argv[1]) / 'target')"
    helper = subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path)], env={**os.environ, ENV: "process.started:1"}
    )
    try:
        assert helper.wait(timeout=60) == -signal.SIGKILL
        wait_for(lambda: not running(str(ran)), timeout=15)
        assert not ran.exists()
    finally:
        for pid in running(str(ran)):
            os.killpg(pid, signal.SIGKILL)


@pytest.mark.parametrize("make", [lambda p: p.write_text("echo ran\n"), lambda p: p.mkdir()], ids=["no-x", "folder"])
def test_a_program_path_that_is_not_executable_is_refused_as_exec_refused_it_not_as_missing(tmp_path, make):
    make(tmp_path / "tool")
    with pytest.raises(PermissionError, match="Permission denied"):
        process.run(["./tool"], cwd=tmp_path, log_prefix=None)


def test_a_program_on_a_relative_folder_of_the_path_is_found_in_the_commands_folder_not_the_daemons(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/tool").write_text("#!/bin/sh\necho found\n")
    (tmp_path / "bin/tool").chmod(0o755)
    assert not (Path.cwd() / "bin/tool").exists()  # the daemon's own folder holds none
    done = process.run(["tool"], cwd=tmp_path, log_prefix=None, env={"PATH": f"bin{os.pathsep}{os.defpath}"})
    assert (done.returncode, done.stdout) == (0, "found\n")
