"""Impostors of our packages for a user's repository: only our code may run, whatever the repository holds."""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGES = ("optimizer", "runs", "mutators", "policies", "trajectory")
AUTORESEARCH = str(Path(sys.executable).with_name("autoresearch"))
IMPOSTOR = (  # the user's own eval and mutator may well import the user's modules: only ours must not
    "import pathlib, sys\n"
    "if not any(own in pathlib.Path('/proc/self/cmdline').read_bytes() for own in (b'evals/score.py', b'tools/mutate.py')):\n"
    "    pathlib.Path({marker!r}).touch()\n"
    "    sys.exit(99)\n"
)


def impostors(markers: Path, layout: str, also: tuple[str, ...] = ()) -> dict[str, str]:
    """A module file or a package folder for each of our packages (and `also`), each touching its own marker."""
    markers.mkdir(exist_ok=True)
    where = "{}.py" if layout == "files" else "{}/__init__.py"
    return {where.format(name): IMPOSTOR.format(marker=str(markers / name)) for name in (*PACKAGES, *also)}
