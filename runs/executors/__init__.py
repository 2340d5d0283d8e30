"""Where an eval's work runs: here (`executor: local`, no executor object at all) or on a Ray cluster.

The one entry point the built-in runner and the command evaluator call is `Executor.call(shipped, fn,
*args)`: `fn(root, *args)` runs where the tree is, `root` being the unpacked snapshot of the candidate's
tree on a worker node (`autoresearch.runs.executors.snapshot`). Git, decisions and records stay on the
driver: a task gets a snapshot and hands back a value, nothing else. `cluster.RayExecutor` is the one
implementation; `local` keeps today's threads and processes untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from autoresearch.plumbing.errors import KEEPS_FAILING
from autoresearch.runs.errors import RunsError, StepFailed

T = TypeVar("T")


class TaskFailed(StepFailed):
    """The remote function raised, or its node was lost more often than the retries allow: the caller
    makes it that test's execution_error (or the command eval's failure), as a local failure would be."""


class NodeLost(TaskFailed):
    """A task run once (`call_once`) whose node, or worker process, was lost while it ran: what it did there
    is gone, its spend included; the caller runs it again or records it as an error."""


class ClusterLost(RunsError):
    """The cluster stopped answering mid-eval: the run stops as an error (the tree is restored by the
    loop's `finally`, and the experiment resumes from its records)."""

    exit_code = KEEPS_FAILING


class Executor(Protocol):
    def connect(self) -> None:
        """Reach the cluster now, before anything is written (exit 30 when it cannot be reached)."""
        ...

    def ship(self, fresh: bool = False) -> Any:
        """The candidate's tree as it is now, sent once for every task of one eval run (`fresh`: each task
        unpacks a copy of its own)."""
        ...

    def call(self, shipped: Any, fn: Callable[..., T], *args: Any) -> T:
        """`fn(root, *args)` run in the shipped tree; `TaskFailed` when it raised there, `ClusterLost` when
        the cluster is gone."""
        ...
