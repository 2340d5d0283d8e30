"""The Ray cluster of test_ray.py starts as soon as the session knows it will run those tests.

Its scenarios (tests/executors/cluster.py) take about ten minutes and mostly wait: for held targets, for
Ray's grace periods, for a cluster that never answers. Started when collection ends, they run beside the rest
of the suite instead of after it (test_ray.py's tests, which wait for what they print, are moved last).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Scenarios:
    process: subprocess.Popen
    work: Path

    @property
    def out(self) -> Path:
        return self.work / "out.json"

    @property
    def err(self) -> Path:
        return self.work / "err.txt"


RUNNING = pytest.StashKey[Scenarios]()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """test_ray.py's tests last, the scenarios they read started now."""
    on_ray = [item for item in items if item.path.name == "test_ray.py"]
    if on_ray:
        items[:] = [item for item in items if item.path.name != "test_ray.py"] + on_ray
        if not config.option.collectonly:
            config.stash[RUNNING] = start()


def start() -> Scenarios:
    """The scenarios in a private network and PID namespace (see test_ray.py); `--kill-child`: the namespace
    and every Ray process in it end when this process is killed."""
    work = Path(tempfile.mkdtemp(prefix="autoresearch-ray-"))
    (work / "scenarios").mkdir()
    script = f"ip link set lo up && exec {sys.executable} -m tests.executors.cluster {work / 'scenarios'}"
    with (work / "out.json").open("w") as out, (work / "err.txt").open("w") as err:
        process = subprocess.Popen(
            ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "sh", "-c", script],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
        )
    return Scenarios(process, work)


def pytest_sessionfinish(session: pytest.Session) -> None:
    running = session.config.stash.get(RUNNING, None)
    if running is not None:
        running.process.kill()  # (when the session stopped before test_ray.py waited for it)
        running.process.wait()
        shutil.rmtree(running.work, ignore_errors=True)
