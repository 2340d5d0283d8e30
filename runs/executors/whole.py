"""One whole eval run as one task: an eval command's run, or a built-in eval whose tests share one AgentV workspace.

The task works in a fresh copy of the tree of its own (the run may write anywhere in it) and writes its run
directory into a temporary folder on the worker, which comes back packed and is unpacked into the driver's
run directory, where the records are. A task that failed there is the eval's failure, as a local run that
fails is; a lost cluster (`ClusterLost`) propagates and stops the run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from autoresearch.plumbing import trees
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.executors import Executor, LostAttempts, TaskFailed
from autoresearch.runs.executors.snapshot import pack_dir, unpack
from autoresearch.runs.executors.worker import scratch

T = TypeVar("T")


def run_whole(executor: Executor, run_dir: Path, lost: LostAttempts, fn: Callable[..., T], *args: Any) -> T:
    """`fn(root, its_run_dir, *args)` as one task (its attempts lost with their node counted in `lost`); what it
    wrote lands in `run_dir`, and its value is returned."""
    shipped = executor.ship(fresh=True)
    try:
        # `fn`'s type does not pass through `call`'s `*args`: what comes back is `in_scratch_dir`'s
        answer = executor.call(shipped, in_scratch_dir, fn, *args, lost=lost.of("the eval"))
        data, value = cast(tuple[bytes, T], answer)
    except TaskFailed as exc:
        raise EvalFailed(str(exc), lost_attempts=lost.count) from None
    unpack(data, run_dir)
    return value


def in_scratch_dir(root: Path, fn: Callable[..., T], *args: Any) -> tuple[bytes, T]:
    """On the worker: `fn` with a temporary run directory, which comes back packed with `fn`'s value."""
    run_dir = scratch("eval")
    try:
        value = fn(root, run_dir, *args)
        return pack_dir(run_dir), value
    finally:
        trees.remove(run_dir, ignore_errors=True)
