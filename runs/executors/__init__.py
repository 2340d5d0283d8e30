"""Where an eval's work runs: here (`executor: local`, no executor object at all) or on a Ray cluster.

The one entry point the built-in runner and the command evaluator call is `Executor.call(shipped, fn,
*args)`: `fn(root, *args)` runs where the tree is, `root` being the unpacked snapshot of the candidate's
tree on a worker node (`autoresearch.runs.executors.snapshot`). Git, decisions and records stay on the
driver: a task gets a snapshot and hands back a value, nothing else. `cluster.RayExecutor` is the one
implementation; `local` keeps today's threads and processes untouched.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from autoresearch.plumbing.errors import KEEPS_FAILING
from autoresearch.runs.errors import RunsError, StepFailed

T = TypeVar("T")


class TaskFailed(StepFailed):
    """The remote function raised, or its node was lost more often than the retries allow: the caller
    makes it that test's execution_error (or the command eval's failure), as a local failure would be."""


class NodeLost(TaskFailed):
    """A task whose node, or worker process, was lost while it ran, more often than `executor.max_retries`
    allows: what it did there is gone, its spend included; the caller records it as an error."""


OnLost = Callable[[NodeLost, int], None]  # hears of each attempt of one task lost with its node: the error, its count


class LostAttempts:
    """The attempts of one eval's tasks lost with their node, counted from any of its threads, each said in the
    log: it was run again (or, lost once more than the retries allow, became that test's error), and what it
    spent there is not known, so no figure beside the count holds it."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def of(self, what: str) -> OnLost:
        """The `lost` of one task's call, `what` naming the task in the log ("test t3", "the eval")."""

        def lost(exc: NodeLost, attempt: int) -> None:
            with self._lock:
                self.count += 1
            logging.getLogger("autoresearch.runs").warning(
                "a Ray node was lost during %s (attempt %d); what that attempt spent is not known, and not counted"
                " (%s)",
                what,
                attempt,
                str(exc)[:300],
            )

        return lost

    def noted(self) -> dict[str, int]:
        """The eval outcome's note of them (`lost_attempts`), none when none was lost."""
        return {"lost_attempts": self.count} if self.count else {}


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

    def call(self, shipped: Any, fn: Callable[..., T], *args: Any, lost: OnLost | None = None) -> T:
        """`fn(root, *args)` run in the shipped tree, run again when its node is lost (`lost` hears of each
        attempt lost) up to `executor.max_retries` times; `TaskFailed` when it raised there or was lost once
        more than that (`NodeLost`), `ClusterLost` when the cluster is gone."""
        ...
