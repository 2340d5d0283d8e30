"""The daemon's own output files, which the scope guard leaves out.

`autoresearch run > run.log` at the top of the repository (or nohup's `nohup.out` there), a file git does not
ignore, is written by the daemon itself, during mutations too (a warning said once per run, a line of a
thread's): the guard took those lines for the mutator's write outside the artifact, failed the cycle as
`out-of-scope` and undid the log. The files the daemon's stdout and stderr are, as the run starts, are its
own: a mutator that writes into one of them is not caught (docs/safety.md says so).
"""

from __future__ import annotations

import os
import stat


def own_output() -> set[str]:
    """The regular files this process's stdout and stderr are, by their real path; none where /proc is not."""
    found = set()
    for fd in (1, 2):
        try:
            held = os.fstat(fd)
            path = os.path.realpath(os.readlink(f"/proc/self/fd/{fd}"))
            there = os.stat(path)
        except OSError:  # closed, no /proc, or a file deleted or renamed since it was opened
            continue
        if stat.S_ISREG(held.st_mode) and (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino):
            found.add(path)
    return found
