"""The Ray scenarios of test_ray.py (tests/runs/executors/cluster.py), started as soon as the run knows it will need them.

They take about ten minutes and mostly wait: for held targets, for Ray's grace periods, for a cluster that never
answers. Started when collection ends, they run beside the rest of the suite instead of after it. Under
pytest-xdist the controller starts them, once, in a folder every worker can name from the run's id; the worker
that runs test_ray.py's tests waits on a lock the scenarios hold for as long as they run.
"""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TESTS = "tests/runs/executors/test_ray.py"


@dataclass(frozen=True)
class Scenarios:
    work: Path

    @property
    def out(self) -> Path:
        return self.work / "out.json"

    @property
    def err(self) -> Path:
        return self.work / "err.txt"

    @property
    def code(self) -> Path:
        return self.work / "exit-code"

    @property
    def lock(self) -> Path:
        return self.work / "running.lock"


STARTED = pytest.StashKey[tuple[Scenarios, subprocess.Popen]]()


def for_run(run_id: str) -> Scenarios:
    """The scenarios' folder of the test run `run_id` (xdist's testrunuid, the same in every worker)."""
    # In /tmp whatever TMPDIR says: Ray's socket paths below it (…/ray/session_<time>_<pid>/sockets/plasma_store.1)
    # must stay within AF_UNIX's 107 bytes, which a TMPDIR of 16 characters already broke
    return Scenarios(Path("/tmp") / f"ar-ray-{run_id[:12]}")


def start(scenarios: Scenarios) -> subprocess.Popen:
    """The scenarios in a private network and PID namespace (see test_ray.py); `--kill-child`: the namespace
    and every Ray process in it end when this process is killed. The lock is taken before this returns and
    held by the scenarios' process alone until it ends, so a waiter can never find it free too early."""
    (scenarios.work / "scenarios").mkdir(parents=True)
    run = f"{sys.executable} -m tests.runs.executors.cluster {scenarios.work / 'scenarios'}"
    script = f"ip link set lo up && {run}; echo $? > {scenarios.code}"
    with scenarios.lock.open("w") as lock, scenarios.out.open("w") as out, scenarios.err.open("w") as err:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return subprocess.Popen(
            ["unshare", "--net", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc", "sh", "-c", script],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            pass_fds=(lock.fileno(),),
        )


def start_for(config: pytest.Config, run_id: str) -> None:
    """Start the scenarios of this test run, once; the session's end stops them (tests/conftest.py)."""
    if STARTED not in config.stash:
        scenarios = for_run(run_id)
        config.stash[STARTED] = (scenarios, start(scenarios))


def results(config: pytest.Config) -> dict:
    """What the scenarios of this test run printed, once they have ended: in the process that started them, or
    in an xdist worker."""
    if STARTED in config.stash:
        scenarios = config.stash[STARTED][0]
    else:
        scenarios = for_run(config.workerinput["testrunuid"])
    with scenarios.lock.open() as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
    code = scenarios.code.read_text().strip() if scenarios.code.exists() else "none (killed)"
    assert code == "0", f"the Ray scenarios exited {code}: " + scenarios.err.read_text()[-3000:]
    return json.loads(scenarios.out.read_text().splitlines()[-1])


def stop(config: pytest.Config) -> None:
    """End the scenarios (when the session stopped before test_ray.py waited for them) and remove their folder."""
    if STARTED not in config.stash:
        return
    scenarios, process = config.stash[STARTED]
    process.kill()
    process.wait()
    shutil.rmtree(scenarios.work, ignore_errors=True)
