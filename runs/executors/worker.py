"""What runs inside a Ray task: the snapshot unpacked once per worker process, then the function called in it.

Imports nothing of Ray: the task is this plain function, sent by reference (autoresearch is installed on
the workers, at the driver's version).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from autoresearch.runs.executors.snapshot import unpack

# the worker process's unpacked tree, by snapshot digest: a process runs one task at a time, and the next
# eval run ships the next candidate, whose tree replaces this one (so a node keeps one tree per process)
_trees: dict[str, Path] = {}


def run_in_snapshot(
    data: bytes, digest: str, env: dict[str, str], fresh: bool, fn: Callable[..., Any], *args: Any
) -> Any:
    """`fn(root, *args)` in the unpacked snapshot with `env` set; `fresh` unpacks a copy of its own (a
    command eval may write anywhere in its tree), removed afterwards."""
    with _environment(env):
        if not fresh:
            return fn(_tree(data, digest), *args)
        root = Path(tempfile.mkdtemp(prefix="autoresearch-run-"))
        try:
            unpack(data, root)
            return fn(root, *args)
        finally:
            shutil.rmtree(root, ignore_errors=True)


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
            shutil.rmtree(old, ignore_errors=True)
        _trees.clear()
        root = Path(tempfile.mkdtemp(prefix=f"autoresearch-{digest[:12]}-"))
        unpack(data, root)
        _trees[digest] = root
    return _trees[digest]
