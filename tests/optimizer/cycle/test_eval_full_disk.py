"""An eval cut short by a full results disk (its output has no room in the run directory) stops the run as a
full disk does, one line and exit 50, instead of counting as the eval's own failure (three in a row: exit 40).
bubblewrap mounts a small tmpfs on the results directory: the disk fills for real, as it does in the night."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers.repos import GIT_ENV, assert_one_line_error, git
from tests.helpers.scenario import scenario_repo, scores

NOISY = """import os, sys
sys.stdout.write("x" * 400_000 + "\\n")
sys.stdout.flush()
print("the eval's own words", file=sys.stderr)
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


def test_an_eval_that_fills_the_results_disk_stops_the_run_for_want_of_room(tmp_path):
    plan = {cycle: {"write": {"prompt.md": scores(a=cycle / 10)}} for cycle in (2, 3, 4)}
    config = {"eval": {"command": "python3 evals/noisy.py {run_dir} prompt.md"}}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, plan, config=config, extra_files={"evals/noisy.py": NOISY}
    )
    head = git(repo, "rev-parse", "HEAD")
    results = repo / ".autoresearch"
    results.mkdir()
    done = subprocess.run(
        ["bwrap", "--dev-bind", "/", "/", "--size", "200000", "--tmpfs", str(results)]
        + [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
    )
    assert_one_line_error(done, 50, f"cannot write {results}/runs/exp/", "No space left on device", "the eval failed")
    assert "eval failed (attempt" not in done.stderr and "eval-failed" not in done.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == ""
