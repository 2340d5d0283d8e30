"""How autoresearch starts a Python process of its own (the daemon, the scheduler, each scheduled run)
so that only our code runs in it.

Those processes start in the user's repository, where `python -m optimizer`
would import the repository's own `optimizer.py` (or `runs/`, `mutators/`, ...)
instead of ours, and where a PYTHONPATH entry such as `.` (or the empty entry
that `PYTHONPATH=$PYTHONPATH:/x` leaves) names the repository too. So they run
this file by path under `-P`, which keeps Python from putting any directory of
its own (the working directory, this file's) on the module path, and this file,
before anything of ours is imported:

- finds our five packages where this file is installed, ahead of every other
  place on the module path, and
- drops the module-path entries that PYTHONPATH names inside the working
  directory, so that our dependencies cannot be shadowed from there either.

PYTHONPATH itself is left as it is: the user's eval and mutator commands, which
inherit it, see what they always saw. Only the standard library is imported
here: run as a script, this file must load nothing of ours before it has
pinned where our packages come from.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import ModuleSpec, PathFinder

HOME = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # the directory holding our packages
PACKAGES = frozenset({"optimizer", "runs", "mutators", "policies", "trajectory"})


def argv(*args: str) -> list[str]:
    """The command line of `autoresearch ARGS` in a new process of this same Python."""
    return [sys.executable, "-P", os.path.realpath(__file__), *args]


class OurPackages:
    """A meta path finder that looks for our top-level packages in HOME only (their submodules follow
    their package's own path)."""

    @staticmethod
    def find_spec(name: str, path=None, target=None) -> ModuleSpec | None:
        if path is None and name in PACKAGES:
            return PathFinder.find_spec(name, [HOME], target)
        return None


def repository_entries(module_path: list[str], pythonpath: str, here: str) -> list[str]:
    """The entries of `module_path` that PYTHONPATH put inside `here` (relative ones are relative to it)."""
    named = {os.path.realpath(os.path.join(here, entry)) for entry in pythonpath.split(os.pathsep)} if pythonpath else set()
    inside = {p for p in named if p == here or p.startswith(here.rstrip(os.sep) + os.sep)}
    return [p for p in module_path if os.path.realpath(os.path.join(here, p)) in inside]


def main() -> None:
    here = os.path.realpath(os.getcwd())
    for entry in repository_entries(sys.path, os.environ.get("PYTHONPATH", ""), here):
        sys.path.remove(entry)
    sys.meta_path.insert(0, OurPackages)
    from optimizer.cli import main as cli

    cli()


if __name__ == "__main__":
    main()
