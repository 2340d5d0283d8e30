"""The daemon's own output files, which the scope guard leaves out.

`autoresearch run > run.log` at the top of the repository (or nohup's `nohup.out` there), a file git does not
ignore, is written by the daemon itself, during mutations too (a warning said once per run, a line of a
thread's): the guard took those lines for the mutator's write outside the artifact, failed the cycle as
`out-of-scope` and undid the log. The files the daemon's stdout and stderr are, as the run starts, are its
own: a mutator that writes into one of them is not caught (docs/safety.md says so).

`autoresearch run 2>&1 | tee run.log` puts the same lines in the same file through a pipe: the files that
the processes reading the pipe (`tee`) hold open for writing are the daemon's output too.
"""

from __future__ import annotations

import os
import stat


def own_output() -> set[str]:
    """The regular files this process's stdout and stderr are, or the files the readers of the pipes they are
    write into, by their real path; none where /proc is not."""
    found, pipes = set(), set()
    for fd in (1, 2):
        try:
            held = os.fstat(fd)
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # closed, or no /proc
            continue
        if stat.S_ISFIFO(held.st_mode):
            pipes.add(path)  # "pipe:[inode]"
        elif stat.S_ISREG(held.st_mode) and _same(os.path.realpath(path), held):
            found.add(os.path.realpath(path))
    return found | _written_by_readers(pipes) if pipes else found


def _written_by_readers(pipes: set[str]) -> set[str]:
    """The regular files open for writing in the other processes that hold one of `pipes` to read it."""
    found = set()
    for pid in filter(str.isdigit, _listdir("/proc")):
        if int(pid) == os.getpid():
            continue
        fds = {fd: _readlink(f"/proc/{pid}/fd/{fd}") for fd in _listdir(f"/proc/{pid}/fd")}
        if not any(target in pipes and _mode(pid, fd) == os.O_RDONLY for fd, target in fds.items()):
            continue
        for fd, target in fds.items():
            if target.startswith("/") and _mode(pid, fd) in (os.O_WRONLY, os.O_RDWR):
                try:
                    held = os.stat(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if stat.S_ISREG(held.st_mode) and _same(target, held):
                    found.add(os.path.realpath(target))
    return found


def _same(path: str, held: os.stat_result) -> bool:
    """Whether `path` is still the file held (not deleted or renamed since it was opened)."""
    try:
        there = os.stat(path)
    except OSError:
        return False
    return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)


def _mode(pid: str, fd: str) -> int | None:
    """The descriptor's access mode (O_RDONLY, O_WRONLY or O_RDWR), from /proc's fdinfo."""
    try:
        with open(f"/proc/{pid}/fdinfo/{fd}") as f:
            for line in f:
                if line.startswith("flags:"):
                    return int(line.split()[1], 8) & os.O_ACCMODE
    except (OSError, ValueError):
        pass
    return None


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:  # a process gone, or another user's
        return []


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""
