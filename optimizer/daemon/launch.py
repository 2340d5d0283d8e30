"""How autoresearch starts a Python process of its own (the daemon, the scheduler, each scheduled run)
so that only our code runs in it.

Those processes start in the user's repository, where `python -m autoresearch.optimizer`
would import the repository's own `optimizer.py` (or `runs/`, `mutators/`, ...)
instead of ours, and where a relative PYTHONPATH entry (`.`, `..`, or the empty
entry that `PYTHONPATH=$PYTHONPATH:/x` leaves) names the repository too, so that
Python would even run a `sitecustomize.py` of the repository before anything of
ours. So they run this file by path under `-P`, which keeps Python from putting
any directory of its own (the working directory, this file's) on the module
path, with the relative entries taken out of PYTHONPATH (see `env`). What is
left is what the user's own `autoresearch` command found our packages (and
their dependencies) with, so the same modules are found.

The user's PYTHONPATH is handed over aside and put back first thing here: the
eval and mutator commands our processes run see what they always saw. Only the
standard library is imported here: nothing of ours may load before that.
"""

from __future__ import annotations

import os
import sys

SAVED = "AUTORESEARCH_PYTHONPATH"  # the user's PYTHONPATH, on its way to the commands our process runs


def argv(*args: str) -> list[str]:
    """The command line of `autoresearch ARGS` in a new process of this same Python (run it with `env()`)."""
    return [sys.executable, "-P", os.path.realpath(__file__), *args]


def env() -> dict[str, str]:
    """This process's environment for a process of ours: PYTHONPATH without its relative entries, which
    name a different place there (the repository), the user's own PYTHONPATH kept in SAVED."""
    environ = dict(os.environ)
    pythonpath = environ.get("PYTHONPATH")
    if pythonpath:
        environ[SAVED] = pythonpath
        environ["PYTHONPATH"] = os.pathsep.join(e for e in pythonpath.split(os.pathsep) if os.path.isabs(e))
    return environ


def main() -> None:
    if SAVED in os.environ:
        os.environ["PYTHONPATH"] = os.environ.pop(SAVED)
    from autoresearch.optimizer.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
