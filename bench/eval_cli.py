"""`autoresearch eval` of 200 tests with a `cli` target that takes 0.1 s, at 32 workers, against the ideal.

The target is a shell command (`sleep 0.1` and a write to {OUTPUT_FILE}), not a Python script, so
that its own start-up is small: what is measured is the runner's cost around each command (the
process start, the scratch directory, the watcher, the threads). The ideal is
`ceil(200 / 32) x 0.1 s` plus the start-up of the CLI (`autoresearch eval --help`'s wall, timed in
the same round). Each round runs the installed `autoresearch` as a subprocess (and, with
`--agentv`, agentv 4.42.4 from tests/agentv/node_modules on the same file, in turn); the medians of
the rounds are printed with the load average, since on a loaded 2-core machine only ratios count.
Run: `python bench/eval_cli.py [--rounds R] [--agentv]`.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

TESTS, WORKERS, LATENCY_S = 200, 32, 0.1
AGENTV = Path(__file__).resolve().parents[1] / "tests" / "agentv" / "node_modules" / ".bin" / "agentv"


@dataclass(frozen=True)
class Timed:
    wall_s: float
    cpu_s: float  # user + sys of the process and everything it waited for


def write_eval(root: Path) -> Path:
    command = f"sleep {LATENCY_S}; echo ok > {{OUTPUT_FILE}}"
    target = {"name": "sleepy", "provider": "cli", "command": command, "timeout_seconds": 30}
    (root / ".agentv").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": [target]}))
    tests = [
        {"id": f"t{i:03d}", "input": f"question {i}", "assertions": [{"type": "contains", "value": "ok"}]}
        for i in range(TESTS)
    ]
    path = root / "bench.eval.yaml"
    path.write_text(yaml.safe_dump({"execution": {"target": "sleepy"}, "tests": tests}))
    return path


def timed(argv: list[str], cwd: Path) -> Timed:
    """One process, its wall time and the CPU of its whole tree (it waits for its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{argv[0]} failed ({done.returncode}): {done.stderr[-2000:] or done.stdout[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu)


def ours(eval_file: Path, out: Path) -> list[str]:
    return ["autoresearch", "eval", str(eval_file), "--output", str(out), "--workers", str(WORKERS), "--json"]


def theirs(eval_file: Path, out: Path) -> list[str]:
    return [str(AGENTV), "eval", str(eval_file), "--output", str(out), "--workers", str(WORKERS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--agentv", action="store_true", help="run agentv 4.42.4 on the same file, in turn")
    args = parser.parse_args()
    if shutil.which("autoresearch") is None:
        sys.exit("autoresearch is not on PATH: install the package (the wheel) first")
    if args.agentv and not AGENTV.exists():
        sys.exit(f"agentv not found at {AGENTV}: link tests/agentv/node_modules")
    runs: dict[str, list[Timed]] = {"autoresearch": [], "start-up": [], "agentv": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        eval_file = write_eval(root)
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)  # the runner looks for the repository's root
        for n in range(args.rounds):
            runs["start-up"].append(timed(["autoresearch", "eval", "--help"], root))
            runs["autoresearch"].append(timed(ours(eval_file, root / f"ours-{n}"), root))
            if args.agentv:
                runs["agentv"].append(timed(theirs(eval_file, root / f"theirs-{n}"), root))
    startup = statistics.median(t.wall_s for t in runs["start-up"])
    ideal = math.ceil(TESTS / WORKERS) * LATENCY_S + startup
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.rounds} rounds, medians")
    print(f"ideal {ideal:.2f} s ({math.ceil(TESTS / WORKERS)} x {LATENCY_S} s + the CLI's start-up {startup:.2f} s)")
    for name in ("autoresearch", "agentv"):
        if runs[name]:
            wall = statistics.median(t.wall_s for t in runs[name])
            cpu = statistics.median(t.cpu_s for t in runs[name])
            spread = f"{min(t.wall_s for t in runs[name]):.2f}-{max(t.wall_s for t in runs[name]):.2f}"
            print(f"{name:>12}: wall {wall:.2f} s ({spread}), CPU {cpu:.2f} s, {wall / ideal:.2f}x the ideal")


if __name__ == "__main__":
    main()
