"""`autoresearch compare` beside `agentv compare` on large result files: wall time and peak memory.

Writes two run directories' index.jsonl of N rows each (AgentV's row: assertions, two graders, token usage,
cost, duration; the candidate's scores shifted so every outcome occurs), then runs
`autoresearch compare BASE CAND --json` and `agentv compare BASE CAND --json` in turn, A B A B,
each as a whole process whose output goes to /dev/null. Wall seconds are a monotonic clock around
the child; peak memory is the kernel's maximum resident set of the child (`wait4`'s ru_maxrss).
The ratio is taken pair by pair, so a machine whose speed drifts still gives a fair one; the figure
is the median. Goal: at most 0.5x agentv's time at 10k and 100k rows, peak memory at 100k no more
than agentv's. The CPU seconds of each side (user + sys, from the same `wait4`) are printed beside it.

Usage: python bench/compare_speed.py [--rows 10000,100000] [--rounds 5]
       [--autoresearch PATH] [--agentv PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def row(i: int, score: float, rng: random.Random) -> dict[str, object]:
    passed = score >= 0.5
    return {
        "timestamp": "2026-11-28T07:00:00.000Z",
        "test_id": f"case-{i:06d}",
        "suite": "bench",
        "score": score,
        "target": "default",
        "assertions": [
            {"text": "mentions the refund policy", "passed": passed, "evidence": "the answer names it"},
            {"text": "no more than three sentences", "passed": True},
        ],
        "scores": [
            {"name": "policy", "type": "llm-grader", "score": score, "weight": 1, "verdict": "pass"},
            {"name": "length", "type": "code-grader", "score": 1, "weight": 1, "verdict": "pass"},
        ],
        "execution_status": "ok",
        "cost_usd": round(rng.uniform(0.001, 0.01), 6),
        "token_usage": {"input": rng.randint(200, 900), "output": rng.randint(20, 300)},
        "duration_ms": rng.randint(400, 9000),
        "error": None,
    }


def write_pair(folder: Path, rows: int) -> tuple[Path, Path]:
    rng = random.Random(rows)
    base, cand = folder / f"base-{rows}" / "index.jsonl", folder / f"cand-{rows}" / "index.jsonl"
    base.parent.mkdir(), cand.parent.mkdir()
    with base.open("w") as b, cand.open("w") as c:
        for i in range(rows):
            s1 = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0])
            s2 = min(1.0, max(0.0, s1 + rng.choice([-0.25, 0.0, 0.0, 0.25])))
            b.write(json.dumps(row(i, s1, rng)) + "\n")
            c.write(json.dumps(row(i, s2, rng)) + "\n")
    return base, cand


def timed(command: list[str]) -> tuple[float, float, float]:
    """(wall seconds, peak MiB, CPU seconds) of one run of `command`, its output thrown away.

    The CPU time (user + sys of the child and what it waited for) moves less with the machine's load than the
    wall time does: on a shared machine the two tell apart a change and the neighbours."""
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"{command[0]} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--autoresearch", default=str(Path(sys.executable).parent / "autoresearch"))
    parser.add_argument("--agentv", default=str(ROOT / "tests/agentv/node_modules/.bin/agentv"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for rows in (int(n) for n in args.rows.split(",")):
            base, cand = write_pair(Path(tmp), rows)
            ours_cmd = [args.autoresearch, "compare", str(base), str(cand), "--json"]
            theirs_cmd = [args.agentv, "compare", str(base), str(cand), "--json"]
            timed(ours_cmd), timed(theirs_cmd)  # warm-up: the page cache and the interpreters' files
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(timed(ours_cmd))
                theirs.append(timed(theirs_cmd))
            ratios = [a[0] / b[0] for a, b in zip(ours, theirs, strict=True)]
            cpu_ratios = [a[2] / b[2] for a, b in zip(ours, theirs, strict=True)]
            print(
                f"{rows} rows: autoresearch {statistics.median(w for w, _, _ in ours):.2f} s, "
                f"{statistics.median(m for _, m, _ in ours):.0f} MiB, {statistics.median(c for _, _, c in ours):.2f} s CPU; "
                f"agentv {statistics.median(w for w, _, _ in theirs):.2f} s, "
                f"{statistics.median(m for _, m, _ in theirs):.0f} MiB, {statistics.median(c for _, _, c in theirs):.2f} s CPU; "
                f"time ratio {statistics.median(ratios):.2f}x (spread {min(ratios):.2f}-{max(ratios):.2f}x), "
                f"CPU ratio {statistics.median(cpu_ratios):.2f}x (spread {min(cpu_ratios):.2f}-{max(cpu_ratios):.2f}x)",
                flush=True,
            )


if __name__ == "__main__":
    main()
