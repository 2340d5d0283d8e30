"""Whether a command line (an eval's, a mutator's) can start at all, checked before anything runs.

A run that detaches and then finds, at its first eval, that `path/to/eval` does
not exist leaves the user nothing but a failed experiment in the morning: these
checks cost nothing, so they run in the foreground first.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")  # `FOO=1 program ...`
SHELL_SYNTAX = re.compile(r"[$`(){};|&<>*?\[~]")  # computed by the shell or by us ({run_dir}): not ours to judge
INTERPRETER = re.compile(r"^(python[0-9.]*|node|deno|bun|bash|sh|zsh|ruby|perl|Rscript)$")
SCRIPT = re.compile(r"\.(py|js|mjs|cjs|ts|sh|rb|pl|R)$")


def missing_program(command: str, cwd: Path) -> str | None:
    """Why the shell command line `command`, run in `cwd`, cannot start; None when it can (or when the
    line is too much shell to tell). Also names a missing script given to an interpreter (`python3 x.py`)."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        return f"cannot be parsed ({exc})"
    while words and ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words:
        return "names no program"
    program = words[0]
    if SHELL_SYNTAX.search(program):
        return None
    if "/" in program:
        path = cwd / program
        if not path.is_file():
            return f"program {program!r} does not exist in {cwd}"
        if not os.access(path, os.X_OK):
            return f"program {program!r} is not executable (chmod +x it, or name its interpreter: python3 {program})"
    elif not _on_path(program, cwd):
        return f"program {program!r} is not on PATH"
    return _missing_script(words, cwd)


def _on_path(program: str, cwd: Path) -> bool:
    """Found in an absolute PATH folder by a lookup in this process, or else by the shell itself (a builtin, a
    function, a relative PATH folder read from `cwd`): the shell costs a process each check, `run` and
    `validate` check the eval's and the mutator's commands."""
    found = shutil.which(program)
    if found is not None and os.path.isabs(found):
        return True
    return subprocess.run(["sh", "-c", 'command -v "$1"', "sh", program], cwd=cwd, capture_output=True).returncode == 0


def _missing_script(words: list[str], cwd: Path) -> str | None:
    """`python3 evals/score.py`: the interpreter exists, but does the script it is given?"""
    if len(words) < 2 or not INTERPRETER.match(os.path.basename(words[0])):
        return None
    script = words[1]
    if script.startswith("-") or SHELL_SYNTAX.search(script) or not SCRIPT.search(script):
        return None
    return None if (cwd / script).is_file() else f"script {script!r} does not exist in {cwd}"
