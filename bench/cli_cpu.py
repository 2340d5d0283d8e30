"""CPU seconds of one `autoresearch` process, as the tests start it, command by command.

The suite is CPU-bound on a 2-core machine, and most of its CPU is the CLI processes the tests start; most of
such a process's CPU is importing the package and its libraries. This times whole processes
(`python -m autoresearch.optimizer ...`, interpreter start-up included) by their user+sys CPU seconds, read
from the kernel when each is reaped, so that a loaded machine slows the figures less than it would wall
time: `--help`, `status` and `validate` in a repository, and `run` of a 3-cycle experiment with a command
eval and a command mutator (tests/helpers/scenario.py), each on a fresh copy of the repository.
Usage: python bench/cli_cpu.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers.repos import GIT_ENV  # noqa: E402
from tests.helpers.scenario import scenario_repo, scores  # noqa: E402

COMMANDS = (["--help"], ["status"], ["validate"], ["run"])


def cpu_of(args: list[str], cwd: Path) -> float:
    """The user+sys CPU seconds of one CLI process and of everything it started and waited for (its eval,
    mutator and git commands): what a test that starts it pays."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 10):
        raise SystemExit(f"autoresearch {' '.join(args)} failed in {cwd}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        plan = {2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"}, 3: {"write": {"prompt.md": ""}}}
        original = scenario_repo(Path(tmp) / "original", {"prompt.md": scores(a=0, b=0)}, plan)
        for args in COMMANDS:
            figures = []
            for i in range(repeat):
                repo = Path(tmp) / f"{args[0]}-{i}"
                shutil.copytree(original, repo, symlinks=True)
                figures.append(cpu_of(args, repo))
            print(
                f"autoresearch {' '.join(args):<9} CPU median {statistics.median(figures) * 1000:4.0f} ms  "
                f"min {min(figures) * 1000:4.0f} ms  max {max(figures) * 1000:4.0f} ms"
            )


if __name__ == "__main__":
    main()
