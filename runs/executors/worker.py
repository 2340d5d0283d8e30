"""What runs inside a Ray task: the snapshot unpacked once per worker process, then the function called in it.

Imports nothing of Ray: the task is this plain function, sent by reference (autoresearch is installed on
the workers, at the driver's version).

Everything a worker process's tasks put on the node's disk (its tree, fresh copies, run directories, and the
temporary files of targets, graders, hooks and workspaces) is in one folder of its own. Ray kills a finished
job's workers, and a lost or interrupted task's, with nothing of theirs run (no `finally`, no atexit): the next
worker process on the node removes the folders of those that have ended.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from autoresearch.plumbing import owned, trees
from autoresearch.runs.executors.snapshot import unpack

# the worker process's unpacked tree, by snapshot digest: a process runs one task at a time, and the next
# eval run ships the next candidate, whose tree replaces this one (so a node keeps one tree per process)
_trees: dict[str, Path] = {}
_home: Path | None = None  # this process's folder, once made
PREFIX = "autoresearch-worker-"


def run_in_snapshot(
    data: bytes, digest: str, env: dict[str, str], fresh: bool, fn: Callable[..., Any], *args: Any
) -> Any:
    """`fn(root, *args)` in the unpacked snapshot with `env` set; `fresh` unpacks a copy of its own (a
    command eval may write anywhere in its tree), removed afterwards."""
    with _environment(env), _temporary_files_at_home():
        if not fresh:
            return fn(_tree(data, digest), *args)
        root = scratch("run")
        try:
            unpack(data, root)
            return fn(root, *args)
        finally:
            trees.remove(root, ignore_errors=True)


@contextmanager
def _temporary_files_at_home() -> Iterator[None]:
    """This process's temporary files in its folder while a task runs."""
    before, tempfile.tempdir = tempfile.tempdir, str(home())
    try:
        yield
    finally:
        tempfile.tempdir = before


@contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    """The driver's keys in this process's environment for one task, the worker's own put back after it."""
    before = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _tree(data: bytes, digest: str) -> Path:
    if digest not in _trees:
        for old in _trees.values():
            trees.remove(old, ignore_errors=True)
        _trees.clear()
        root = scratch(f"tree-{digest[:12]}")
        unpack(data, root)
        _trees[digest] = root
    return _trees[digest]


def scratch(kind: str) -> Path:
    """A new folder for a task's files, in this process's folder."""
    return Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=home()))


def home() -> Path:
    """This worker process's folder, marked with its PID namespace and PID; made (after removing the folders of
    this namespace's ended processes) by its first task."""
    global _home
    if _home is None:
        namespace = owned.namespace()
        if namespace is not None:  # without /proc nothing says which folders are this namespace's
            for path in Path(tempfile.gettempdir()).glob(f"{PREFIX}{namespace}-*"):
                pid = path.name.removeprefix(f"{PREFIX}{namespace}-").split("-", 1)[0]
                if pid.isdigit() and not owned.alive(int(pid)):
                    trees.remove(path, ignore_errors=True)
        _home = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{namespace or 0}-{os.getpid()}-"))
    return _home
    return True
