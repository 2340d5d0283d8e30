"""How autoresearch starts a Python process of its own (the daemon, the scheduler, each scheduled run)
so that only our code runs in it.

Those processes start in the user's repository, where `python -m optimizer`
would import the repository's own `optimizer.py` (or `runs/`, `mutators/`, ...)
instead of ours, and where a PYTHONPATH entry such as `.` (or the empty entry
that `PYTHONPATH=$PYTHONPATH:/x` leaves) names the repository too. So they run
this file by path under `-P`, which keeps Python from putting any directory of
its own (the working directory, this file's) on the module path, and this file,
before anything of ours is imported, drops the module-path entries that come
from relative PYTHONPATH entries (`.`, the empty entry, `src`, `..`): they name
one place for the command the user typed and another here. What is left is
what the user's own `autoresearch` command found our packages (and their
dependencies) with, so the same modules are found.

PYTHONPATH itself is left as it is: the user's eval and mutator commands, which
inherit it, see what they always saw. Only the standard library is imported
here: run as a script, this file must load nothing of ours before it has
cleaned the module path.
"""

from __future__ import annotations

import os
import sys


def argv(*args: str) -> list[str]:
    """The command line of `autoresearch ARGS` in a new process of this same Python."""
    return [sys.executable, "-P", os.path.realpath(__file__), *args]


def relative_entries(module_path: list[str], pythonpath: str, here: str) -> list[str]:
    """The entries of `module_path` that relative PYTHONPATH entries put there (Python resolves them against `here`)."""
    relative = {os.path.realpath(os.path.join(here, e)) for e in pythonpath.split(os.pathsep) if not os.path.isabs(e)}
    return [p for p in module_path if os.path.realpath(os.path.join(here, p)) in relative] if pythonpath else []


def main() -> None:
    for entry in relative_entries(sys.path, os.environ.get("PYTHONPATH", ""), os.getcwd()):
        sys.path.remove(entry)
    from optimizer.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
