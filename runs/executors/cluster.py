"""`executor: ray`: each unit of eval work is one Ray task on an existing cluster.

Ray runs in a driver process of its own (`autoresearch.runs.executors.driver`, one per daemon and cluster),
never in the daemon: losing the cluster ends that process, not the run, which then stops as an error (exit 40)
with the tree restored, whatever the address form. The daemon talks to it over a socket pair; each call waits
for its own answer, so the runner's threads dispatch and collect as they would locally, and at most
`eval.workers` calls are in flight at once, however many candidates share the driver.

A task holds `num_cpus` and the custom `resources` on its node. Ray never runs it again: when its node is lost,
the call runs it again itself (`max_retries` times, system failures only), telling the caller of each attempt
lost, whose spend nothing brings back, so the caller counts it; the caller keeps exactly one result per task,
so a lost node loses no test and counts none twice.

The keys a task needs are put in the object store once per eval run and set in the task's environment while
it runs (the targets and graders it starts inherit them): never in the snapshot, never in the task's arguments
(they hold the object's reference), never in a runtime environment, whose variables Ray's runtime_env agent
writes to its log.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pickle
import re
import socket
import subprocess
import sys
import threading
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from autoresearch.runs.errors import RunsError
from autoresearch.runs.executors import ClusterLost, NodeLost, OnLost, TaskFailed
from autoresearch.runs.executors.config import ExecutorConfig
from autoresearch.runs.executors.snapshot import Snapshot, TooBig, build

T = TypeVar("T")
INSTALL = "pip install 'autoresearch[ray]'"
KEYS = re.compile(r".+_(API_KEY|BASE_URL|TOKEN)$")  # forwarded without being listed in executor.env
CONNECT_SECONDS = 300  # ray.init itself gives up well before this


@dataclass(frozen=True, eq=False)
class Shipped:
    data: int  # the snapshot's key in the driver's object table
    digest: str
    env: int  # the key of the variables each task runs with
    fresh: bool  # each task unpacks a copy of its own (command evals)
    driver: Driver = field(repr=False)

    def __post_init__(self) -> None:  # the objects leave the cluster's store once no eval holds them
        weakref.finalize(self, self.driver.free, [self.data, self.env])


class Driver:
    """The driver process and the calls in flight to it; lost for good once its connection closes."""

    def __init__(self, address: str, config: ExecutorConfig, workers: int | None):
        self.address = address
        self.slots: AbstractContextManager[object] = threading.BoundedSemaphore(workers) if workers else nullcontext()
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "autoresearch.runs.executors.driver", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            cwd="/",  # Ray puts the driver's directory on its workers' sys.path: never the user's repository
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a signal to the daemon's process group is the daemon's to handle
        )
        theirs.close()
        self.conn = Connection(ours.detach())
        self.lost: str | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._waiting: dict[int, Future[tuple[str, Any]]] = {}
        self._unused: deque[int] = deque()  # objects no eval holds any more, freed with the next message
        options = {"num_cpus": config.num_cpus, "resources": config.resources or None}
        try:
            self._send(("connect", 0, (address, options)))
            verb, _, answer = self._first_answer()
        except BaseException:  # Ctrl-C while Ray connects (which can take minutes): the process ends with us
            self.close()
            raise
        if verb == "missing":
            self.close()
            raise RunsError(f"{config.field('executor')}: Ray is not installed ({INSTALL}; {answer})")
        if verb != "ok":
            self.close()
            raise RunsError(
                f"{config.field('executor.address')}: cannot reach the Ray cluster at {address!r} ({answer})"
            )
        threading.Thread(target=self._read, name="ray-driver", daemon=True).start()

    def put(self, data: Any) -> int:
        key: int = self._ask("put", data)
        return key

    def call(self, shipped: Shipped, fn: Callable[..., T], *args: Any, slotted: bool = True) -> T:
        """One attempt of `fn(root, *args)`, which Ray does not run again (`NodeLost` when its node is lost), in
        one of the eval's slots unless not `slotted` (a candidate's mutation)."""
        with self.slots if slotted else nullcontext():
            value: T = self._ask("call", (shipped.data, shipped.digest, shipped.env, shipped.fresh, fn, args))
            return value

    def free(self, keys: list[int]) -> None:
        """Called by the garbage collector, at any point of any thread: so it only notes the keys (a message
        sent from here could cut into one being sent)."""
        self._unused.extend(keys)

    def close(self) -> None:
        """Before the reader runs: the process ends now, even one still waiting for Ray to connect."""
        self.conn.close()
        self.process.kill()
        self.process.wait()

    def end(self, reason: str) -> None:
        """End for good: every call in flight and every later one raises `ClusterLost(reason)` at once, and the
        driver process is killed, which ends its job's tasks on the cluster."""
        self._fail_waiting(reason)
        self.process.kill()

    def _ask(self, verb: str, payload: Any) -> Any:
        future: Future[tuple[str, Any]] = Future()
        with self._lock:
            if self.lost is not None:
                raise ClusterLost(self.lost)
            rid = next(self._ids)
            self._waiting[rid] = future
        self._send((verb, rid, payload))
        kind, answer = future.result()  # until the answer, the driver's end, or `end_calls` (the command's end)
        if kind == "ok":
            return answer
        if kind == "failed":
            raise TaskFailed(answer)
        if kind == "node-lost":
            raise NodeLost(answer)
        raise ClusterLost(answer)

    def _send(self, message: tuple[Any, ...]) -> None:
        data = pickle.dumps(message)
        with self._lock:  # one sender at a time takes the unused keys: two would both count them, and pop too many
            unused = [self._unused.popleft() for _ in range(len(self._unused))]
            try:
                if unused:
                    self.conn.send_bytes(pickle.dumps(("free", 0, unused)))
                self.conn.send_bytes(data)
            except OSError:
                self.lost = self.lost or self._ended()
                raise ClusterLost(self.lost) from None

    def _first_answer(self) -> tuple[Any, ...]:
        if not self.conn.poll(CONNECT_SECONDS):
            return ("unreachable", 0, f"no answer in {CONNECT_SECONDS} s")
        try:
            answer: tuple[Any, ...] = pickle.loads(self.conn.recv_bytes())
            return answer
        except (EOFError, OSError):
            return ("unreachable", 0, f"the Ray driver process ended (exit {self.process.wait()})")

    def _read(self) -> None:
        while True:
            try:
                kind, rid, answer = pickle.loads(self.conn.recv_bytes())
            except (EOFError, OSError):
                break
            with self._lock:
                future = self._waiting.pop(rid, None)
            if future is not None:
                future.set_result((kind, answer))
        self._fail_waiting(self._ended())

    def _fail_waiting(self, reason: str) -> None:
        """Lost for good: the calls waiting now, and every later one, raise `ClusterLost` (the first reason)."""
        with self._lock:
            self.lost = self.lost or reason
            waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            future.set_result(("lost", self.lost))

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        how = f"exit {code}" if code is not None else "connection closed"
        return f"lost the Ray cluster at {self.address!r}: its driver process ended ({how})"


# one driver per cluster and task settings for the daemon's life: every candidate's evaluator shares it
_drivers: dict[tuple[str, str], Driver] = {}
_drivers_lock = threading.Lock()


def end_calls(reason: str = "the run is ending") -> None:
    """End every driver of this process and the calls in flight to them, at once (a new eval connects anew).
    For an interrupted or finished command: its threads waiting for remote tasks return now, rather than hold
    the interpreter's exit (which joins them) until the tasks end on the cluster."""
    with _drivers_lock:
        ending = list(_drivers.values())
        _drivers.clear()
    for driver in ending:
        driver.end(reason)


class RayExecutor:
    def __init__(self, config: ExecutorConfig, root: Path, skip: list[str], workers: int | None = None):
        self.config, self.root, self.skip, self.workers = config, root, skip, workers
        self._driver: Driver | None = None

    @property
    def address(self) -> str:
        return self.config.address or os.environ.get("RAY_ADDRESS") or "auto"

    def connect(self) -> None:
        """At the eval's check, before anything is written: a tree over `max_snapshot_mb` is refused (naming the
        field), then the cluster is reached."""
        self._snapshot()
        self._reach()

    def ship(self, fresh: bool = False) -> Shipped:
        driver = self._reach()
        snapshot = self._snapshot()
        data, env = driver.put(snapshot.data), driver.put(self.environment())
        return Shipped(data, snapshot.digest, env, fresh, driver)

    def _snapshot(self) -> Snapshot:
        try:
            return build(self.root, self.skip, int(self.config.max_snapshot_mb * 1e6))
        except TooBig as exc:
            raise RunsError(f"{self.config.field('executor.max_snapshot_mb')}: {exc}") from None

    def _reach(self) -> Driver:
        if self._driver is not None:
            return self._driver
        if importlib.util.find_spec("ray") is None:
            raise RunsError(f"{self.config.field('executor')}: Ray is not installed ({INSTALL})")
        key = (self.address, self.config.model_dump_json())
        with _drivers_lock:
            driver = _drivers.get(key)
            if driver is None or driver.lost is not None:
                driver = _drivers[key] = Driver(self.address, self.config, self.workers)
        self._driver = driver
        return driver

    def call(self, shipped: Shipped, fn: Callable[..., T], *args: Any, lost: OnLost | None = None) -> T:
        """`fn(root, *args)` as a task in one of `eval.workers`' slots, run again by this call when its node is
        lost (see `again_when_lost`)."""
        return self.again_when_lost(lambda: shipped.driver.call(shipped, fn, *args), lost)

    def call_unslotted(self, shipped: Shipped, fn: Callable[..., T], *args: Any, lost: OnLost | None = None) -> T:
        """`call`, taking none of `eval.workers`' slots: a candidate's mutation."""
        return self.again_when_lost(lambda: shipped.driver.call(shipped, fn, *args, slotted=False), lost)

    def again_when_lost(self, attempt: Callable[[], T], lost: OnLost | None) -> T:
        """`attempt()`, made again when its node is lost, up to `executor.max_retries` times: `lost` hears of
        each attempt lost (what it spent is gone with it: the caller counts it), and the last `NodeLost` is
        raised when the task was lost once more than that."""
        count = 0
        while True:
            try:
                return attempt()
            except NodeLost as exc:
                count += 1
                if lost is not None:
                    lost(exc, count)
                if count > self.config.max_retries:
                    raise

    def environment(self) -> dict[str, str]:
        """The variables each task gets: the listed ones and the driver's keys (`.env` is loaded into the
        driver's environment before this)."""
        wanted = set(self.config.env) | {name for name in os.environ if KEYS.fullmatch(name)}
        return {name: os.environ[name] for name in sorted(wanted) if name in os.environ}


def open_executor(
    config: ExecutorConfig, root: Path, skip: list[str], workers: int | None = None
) -> RayExecutor | None:
    """The configured executor for the tree at `root` (`skip`: folders never shipped; `workers`: the most
    calls in flight at once, shared by every executor of this cluster, else as many as the runners make),
    None for `local`."""
    return RayExecutor(config, root, skip, workers) if config.kind == "ray" else None
