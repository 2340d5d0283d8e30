"""`executor: ray`: each unit of eval work is one Ray task on an existing cluster.

Ray is imported only here, and only when the config chooses it (`pip install 'autoresearch[ray]'`).
A task holds `num_cpus` and the custom `resources` on its node; Ray runs it again on another node when
its node is lost (`max_retries`, system failures only), and the caller keeps exactly one result per
task, so a lost node loses no test and counts none twice.

The keys a task needs are put in the object store once per eval run and set in the task's environment
while it runs (the targets and graders it starts inherit them): never in the snapshot, never in the
task's arguments (they hold the object's reference), never in a runtime environment, whose variables
Ray's runtime_env agent writes to its log.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from autoresearch.runs.errors import RunsError
from autoresearch.runs.executors import ClusterLost, TaskFailed
from autoresearch.runs.executors.config import ExecutorConfig
from autoresearch.runs.executors.snapshot import build
from autoresearch.runs.executors.worker import run_in_snapshot

T = TypeVar("T")
INSTALL = "pip install 'autoresearch[ray]'"
KEYS = re.compile(r".+_(API_KEY|BASE_URL|TOKEN)$")  # forwarded without being listed in executor.env


@dataclass(frozen=True)
class Shipped:
    ref: Any  # the snapshot's ObjectRef in the cluster's object store
    digest: str
    env: Any  # the ObjectRef of the variables each task runs with
    fresh: bool  # each task unpacks a copy of its own (command evals)


class RayExecutor:
    def __init__(self, config: ExecutorConfig, root: Path, skip: list[str]):
        self.config, self.root, self.skip = config, root, skip
        self._ray: Any = None
        self._task: Any = None  # the remote function, made once (each one made is exported to the cluster)

    @property
    def address(self) -> str:
        return self.config.address or os.environ.get("RAY_ADDRESS") or "auto"

    def connect(self) -> None:
        if self._ray is not None:
            return
        try:
            import ray
        except ImportError:
            raise RunsError(f"autoresearch.yaml: field 'executor': Ray is not installed ({INSTALL})") from None
        if not ray.is_initialized():
            try:
                _answers(self.address)
                ray.init(
                    address=self.address, log_to_driver=False, logging_level=logging.ERROR, configure_logging=False
                )
            except Exception as exc:  # whatever Ray raises for a cluster it cannot reach
                raise RunsError(
                    f"autoresearch.yaml: field 'executor.address': cannot reach the Ray cluster at "
                    f"{self.address!r} ({_first_line(exc)})"
                ) from None
        self._ray = ray
        self._task = ray.remote(run_in_snapshot).options(
            num_cpus=self.config.num_cpus,
            resources=self.config.resources or None,
            max_retries=self.config.max_retries,
            retry_exceptions=False,  # the test's own failure is its result, not a reason to run it again
        )

    def ship(self, fresh: bool = False) -> Shipped:
        self.connect()
        snapshot = build(self.root, self.skip, int(self.config.max_snapshot_mb * 1e6))
        try:
            return Shipped(self._ray.put(snapshot.data), snapshot.digest, self._ray.put(self.environment()), fresh)
        except Exception as exc:
            raise ClusterLost(f"the Ray cluster at {self.address!r} took no snapshot ({_first_line(exc)})") from None

    def call(self, shipped: Shipped, fn: Callable[..., T], *args: Any) -> T:
        ray = self._ray
        try:
            return ray.get(self._task.remote(shipped.ref, shipped.digest, shipped.env, shipped.fresh, fn, *args))
        except ray.exceptions.RayTaskError as exc:
            raise TaskFailed(_first_line(exc.cause if exc.cause is not None else exc)) from None
        except (
            ray.exceptions.WorkerCrashedError,
            ray.exceptions.NodeDiedError,
            ray.exceptions.ObjectLostError,
            ray.exceptions.OutOfMemoryError,
            ray.exceptions.TaskUnschedulableError,
        ) as exc:  # lost more often than max_retries allows, or nowhere to run: this test's error
            raise TaskFailed(f"Ray: {_first_line(exc)}") from None
        except Exception as exc:
            raise ClusterLost(f"lost the Ray cluster at {self.address!r}: {_first_line(exc)}") from None

    def environment(self) -> dict[str, str]:
        """The variables each task gets: the listed ones and the driver's keys (`.env` is loaded into the
        driver's environment before this)."""
        wanted = set(self.config.env) | {name for name in os.environ if KEYS.fullmatch(name)}
        return {name: os.environ[name] for name in sorted(wanted) if name in os.environ}


def _answers(address: str) -> None:
    """Something listens at a `host:port` or `ray://host:port` address: Ray itself waits about two minutes
    for a cluster that is not there, and rewrites 127.0.0.1 to the machine's address while it does."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected auto, host:port or ray://host:port, not {address!r}")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=10):
        pass


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0].strip() if lines else type(exc).__name__


def open_executor(config: ExecutorConfig, root: Path, skip: list[str]) -> RayExecutor | None:
    """The configured executor for the tree at `root` (`skip`: folders never shipped), None for `local`."""
    return RayExecutor(config, root, skip) if config.kind == "ray" else None
