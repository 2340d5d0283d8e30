"""The garbage collector in a CLI process: none during start-up's imports, the usual pace once the loop runs,
and start-up's objects frozen at exit (the interpreter's last full collection would walk them all)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.repos import GIT_ENV
from tests.helpers.scenario import scenario_repo, scores

# The CLI as the console script runs it, watched by a gc callback: the collections once `main` starts, and
# the collector's settings when `main` has returned.
WATCHED = """
import gc, json, sys
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
from autoresearch.optimizer.cli import main
collections.clear()
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "collections": collections, "threshold": gc.get_threshold(),
                  "frozen": gc.get_freeze_count()}), file=sys.stderr)
"""


def watched(repo: Path, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", WATCHED, *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_validate_collects_nothing_during_start_up_and_exits_with_start_ups_objects_frozen(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {})
    seen = watched(repo, "validate")
    assert seen["code"] == 0
    assert seen["collections"] == []  # main's code: about 90, each walking what the imports made so far
    assert seen["frozen"] > 10_000


def test_run_collects_at_the_usual_pace_once_the_loop_runs(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    seen = watched(repo, "run")
    assert seen["code"] == 0
    assert tuple(seen["threshold"]) == gc.get_threshold()  # the defaults, as this test process has them
    assert seen["frozen"] > 10_000
