"""`tracking:`: each run an MLflow run, each cycle a step, logged without ever slowing or breaking a cycle.

The daemon never imports MLflow (seconds of import and a hundred MiB it would carry all night): a worker
process of ours (`autoresearch.optimizer.tracking.worker`) does the logging, fed one JSON line per event
through a pipe. The loop only queues an event (a bounded queue: when the worker falls behind, events are
dropped and said once); one thread writes the queue into the pipe. The worker logs what it cannot deliver
(a dead server) as one warning, which the daemon's log repeats, and goes on with the next event. When the
daemon dies, the pipe closes and the worker ends by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import IO, TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from autoresearch.optimizer.daemonlog import get
from autoresearch.plumbing.errors import Interrupted
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.redact import learned, redact

if TYPE_CHECKING:
    from autoresearch.trajectory.iterations import Iteration

QUEUE_SIZE = 1000  # events waiting for the worker: a night's cycles, many times over
DRAIN_S = 60.0  # how long the end of a run waits for the worker to log what is queued (a slow server's uploads)
DRAIN_FAILING_S = 10.0  # the same, once the worker has said the server does not answer: what is left is lost
# MLflow's client retries a failed request 7 times with a doubling backoff (minutes): the worker's are short,
# so that a dead server costs a cycle's event seconds, not minutes (unless the user set them otherwise).
# MLflow 3 refuses a `file:` store unless told to allow it: a user who names one has.
WORKER_ENV = {
    "MLFLOW_HTTP_REQUEST_MAX_RETRIES": "1",
    "MLFLOW_HTTP_REQUEST_TIMEOUT": "10",
    "MLFLOW_ALLOW_FILE_STORE": "true",
}


class MlflowConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    uri: str
    """The tracking server (`http://127.0.0.1:5000`), or any tracking URI MLflow takes (`file:///...`, `sqlite:///...`)."""
    experiment: str | None = None
    """The MLflow experiment the runs go to (default: `autoresearch-<experiment>`)."""


class TrackingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mlflow: MlflowConfig | None = None
    """Log each run to MLflow (the `mlflow` extra: `pipx inject autoresearch mlflow-skinny`)."""


def available() -> bool:
    """Whether this installation can log to MLflow (its optional extra)."""
    return find_spec("mlflow") is not None


class Tracker:
    """The daemon's side: a bounded queue, a writer thread, the worker process."""

    def __init__(self, events: list[JSONObject] | None = None, worker: subprocess.Popen[bytes] | None = None):
        self._worker = worker
        self._queue: queue.Queue[JSONObject | None] = queue.Queue(QUEUE_SIZE)
        self._dropped = 0
        self._failing = False  # the worker said the server does not answer (and has not said it answers again)
        if worker is None:
            return
        for event in events or []:
            self._queue.put_nowait(event)
        assert worker.stdin is not None and worker.stdout is not None
        threading.Thread(target=self._write, args=(worker.stdin,), name="tracking", daemon=True).start()
        threading.Thread(target=self._relay, args=(worker.stdout,), name="tracking-log", daemon=True).start()

    def send(self, event: JSONObject) -> None:
        if self._worker is None:
            return
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            if not self._dropped:
                get().warning("MLflow tracking falls behind: cycles are left out of it", queued=QUEUE_SIZE)
            self._dropped += 1

    def close(self, status: str, timeout_s: float | None = None) -> None:
        """The run's end: the worker logs what is queued and ends the MLflow run, for a bounded time (a short one
        when the server is failing)."""
        if self._worker is None:
            return
        if timeout_s is None:
            timeout_s = DRAIN_FAILING_S if self._failing else DRAIN_S
        self.send({"kind": "end", "status": status, "dropped": self._dropped})
        deadline = time.monotonic() + timeout_s
        try:
            self._queue.put(None, timeout=timeout_s)  # full: the worker is stuck, the writer blocked on its pipe
            self._worker.wait(max(0.0, deadline - time.monotonic()))
        except (queue.Full, subprocess.TimeoutExpired):
            get().warning("MLflow tracking still logging at the end of the run: given up", waited_s=timeout_s)
            self._worker.kill()
            self._worker.wait()

    def _write(self, pipe: IO[bytes]) -> None:
        try:
            while (event := self._queue.get()) is not None:
                pipe.write(redact(json.dumps(event)).encode() + b"\n")
                pipe.flush()
        except (BrokenPipeError, ValueError):  # the worker died: what it said is in the log already
            return
        finally:
            with contextlib.suppress(OSError, ValueError):  # what is left in its buffer, for a worker killed
                pipe.close()

    def _relay(self, stream: IO[bytes]) -> None:
        """The worker's warnings, as the daemon's own log lines; whether it says the server is failing."""
        for raw in stream:
            try:
                said = json.loads(raw)
                warning, self._failing = str(said["warning"]), bool(said["failing"])
            except (ValueError, KeyError, TypeError):  # not the worker's (a library printing on its stdout)
                warning = raw.decode(errors="replace").strip()
            if warning:
                get().warning(f"MLflow tracking: {redact(warning)}")


_current = Tracker()


@dataclass(frozen=True)
class Run:
    """What the worker needs to know of the run, once."""

    experiment: str
    repo: Path
    artifact: str
    iterations: Path  # logged whole as the run ends, with the chart drawn from it
    log: Path  # the worker's own output (MLflow's messages)
    name: str
    params: dict[str, str]
    metric: bool  # how the chart reads the scores (autoresearch.trajectory.chartdata.Reading)
    goal: str


def start(config: TrackingConfig, run: Run) -> Tracker:
    """The run's tracker, which the cycle reaches through `current`; a no-op one without `tracking.mlflow`."""
    global _current
    if config.mlflow is None:
        _current = Tracker()
        return _current
    env = {**os.environ, **{k: v for k, v in WORKER_ENV.items() if k not in os.environ}}
    run.log.parent.mkdir(parents=True, exist_ok=True)
    with run.log.open("ab") as log:
        worker = subprocess.Popen(
            [sys.executable, "-P", "-m", "autoresearch.optimizer.tracking.worker"],
            cwd=run.repo,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,  # Ctrl-C at the terminal is the daemon's to handle; the worker ends with the pipe
        )
    names, dotenv = learned()
    opening = {
        "kind": "start",
        "uri": config.mlflow.uri,
        "experiment": config.mlflow.experiment or f"autoresearch-{run.experiment}",
        "run_name": run.name,
        "params": run.params,
        "artifact": run.artifact,
        "iterations": str(run.iterations),
        "reading": {"metric": run.metric, "goal": run.goal},
        "masking": {"names": names, "dotenv": [str(p) for p in dotenv]},  # the worker masks the diffs it reads
    }
    _current = Tracker([opening], worker)
    return _current


def current() -> Tracker:
    return _current


def cycle(entry: "Iteration") -> None:
    """A cycle's line was written: its step in MLflow (a KEEP's diff comes with it)."""
    _current.send({"kind": "cycle", "line": entry.model_dump(mode="json", exclude_none=True)})


def ended(tracker: Tracker, error: BaseException | None) -> None:
    """The MLflow run ends as the run did: FINISHED, KILLED (Ctrl-C, SIGTERM) or FAILED."""
    if error is None:
        tracker.close("FINISHED")
    else:
        tracker.close("KILLED" if isinstance(error, (Interrupted, KeyboardInterrupt)) else "FAILED")
