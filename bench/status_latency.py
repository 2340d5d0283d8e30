"""How long `autoresearch status` takes, as a user types it, while a daemon is in the middle of a cycle.

Builds a temporary repository with an experiment whose daemon is "running"
(this script holds its lock, as the daemon would) with a long history (2,000
cycles in iterations.jsonl, a 5 MB daemon.log) and a scheduler record next to
it, then times `python -m autoresearch.optimizer status` and `status EXPERIMENT` as
subprocesses, wall clock, interpreter start-up included. Goal: under 0.3 s at 2,000 cycles; issue 34's
goal is 150 ms at 300 (`--cycles 300`).
Usage: python bench/status_latency.py [--repeat N] [--cycles N]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers.scenario import scenario_repo, scores  # noqa: E402

GOAL_S = 0.3


def populate(repo: Path, cycles: int = 2000) -> int:
    """A mid-cycle experiment and a scheduler record; returns the fd holding the experiment's lock."""
    meta = repo / ".autoresearch/runs/exp/_autoresearch"
    meta.mkdir(parents=True)
    with open(meta / "iterations.jsonl", "w") as f:
        for cycle in range(1, cycles + 1):
            f.write(
                json.dumps(
                    {
                        "cycle": cycle,
                        "score": 0.5,
                        "decision": "drop",
                        "mutation": "x" * 80,
                        "run_dir": f"run-{cycle}",
                        "timestamp": "2026-11-22T01:00:00Z",
                    }
                )
                + "\n"
            )
    with open(meta / "daemon.log", "w") as f:
        line = json.dumps({"event": "evaluating", "level": "info", "cycle": 1, "phase": "eval", "pad": "y" * 100})
        f.writelines(line + "\n" for _ in range(5 * 1024 * 1024 // len(line)))
    state = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "initial_sha": "0" * 40,
        "pid": os.getpid(),
        "status": "running",
        "cycle": cycles,
        "phase": "eval",
        "phase_started_at": "2026-11-22T01:00:00Z",
        "original_score": 0.1,
        "best_score": 0.9,
        "best_cycle": 7,
        "keeps": 7,
        "drops": cycles - 7,
        "cost_usd": 1.5,
        "budget_usd": 5,
        "deadline": "2099-01-01T07:00:00Z",
    }
    (meta / "state.json").write_text(json.dumps(state))
    fd = os.open(meta / "lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.pwrite(fd, json.dumps({"pid": os.getpid(), "since": "2026-11-22T01:00:00Z"}).encode(), 0)
    sched = repo / ".autoresearch/schedules/exp"
    sched.mkdir(parents=True)
    (sched / "schedule.json").write_text(json.dumps({"pid": 1, "cron": "0 1 * * *", "tz": "UTC", "runs": []}))
    return fd


def time_command(repo: Path, args: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "autoresearch.optimizer", *args], cwd=repo, capture_output=True, text=True
        )
        times.append(time.perf_counter() - started)
        if done.returncode != 0 or "running (pid" not in done.stdout:
            raise SystemExit(f"status failed: {done.stdout}{done.stderr}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--cycles", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = scenario_repo(Path(tmp) / "repo", {"prompt.md": scores(a=0)}, {})
        fd = populate(repo, args.cycles)
        try:
            for command in (["status"], ["status", "exp"]):
                times = time_command(repo, command, args.repeat)
                median = statistics.median(times)
                verdict = "ok" if median < GOAL_S else "SLOW"
                print(
                    f"autoresearch {' '.join(command):<11} median {median * 1000:4.0f} ms  "
                    f"min {min(times) * 1000:4.0f} ms  max {max(times) * 1000:4.0f} ms  "
                    f"(goal < {GOAL_S * 1000:.0f} ms: {verdict})"
                )
        finally:
            os.close(fd)


if __name__ == "__main__":
    main()
