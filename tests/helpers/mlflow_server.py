"""A real MLflow tracking server on 127.0.0.1, SQLite behind it, from the pinned tests/mlflow/.venv (tests/run
makes it), for the tracking tests: started once per worker that runs them, stopped and started again on the same
store by a test that kills it mid-run."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers.scenario import wait_for

SERVER = Path(__file__).resolve().parents[1] / "mlflow" / ".venv" / "bin" / "mlflow"
STARTUP_S = 180.0  # its first start creates the SQLite schema (dozens of migrations), slow on a loaded machine


@dataclass
class MlflowServer:
    store: Path
    port: int = field(default_factory=lambda: _free_port())
    process: subprocess.Popen | None = None

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert SERVER.exists(), f"{SERVER} is missing: tests/run installs the pinned MLflow server"
        self.process = subprocess.Popen(
            [str(SERVER), "server", "--host", "127.0.0.1", "--port", str(self.port), "--workers", "1"]
            + ["--backend-store-uri", f"sqlite:///{self.store / 'mlflow.db'}"]
            + ["--artifacts-destination", str(self.store / "artifacts")],
            cwd=self.store,
            # no job runner: its huey store is a folder MLflow makes in /dev/shm and never removes, one a run
            env={**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"},
            stdout=(self.store / "server.log").open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(self._healthy, timeout=STARTUP_S)

    def kill(self) -> None:
        """SIGKILL, to its whole group (the server and its workers), as a crash would end it."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def _healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"the MLflow server exited: {(self.store / 'server.log').read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{self.uri}/health", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def mlflow_server(tmp_path_factory) -> Iterator[MlflowServer]:
    """One server per worker, not per module: a worker runs other modules' tests between the tracking tests, and a
    module fixture was started again each time it came back to them (a fresh store: 15-45 s of migrations)."""
    server = MlflowServer(tmp_path_factory.mktemp("mlflow"))
    server.start()
    try:
        yield server
    finally:
        server.kill()
