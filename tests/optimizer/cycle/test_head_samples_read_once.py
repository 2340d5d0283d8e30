"""The significant rule reads each of HEAD's stored samples once a cycle, not once to count them and again to use them."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import textwrap

from tests.helpers.repos import GIT_ENV, git
from tests.helpers.scenario import iterations
from tests.optimizer.cycle.test_decisions import keep_then_drop

# `run` in this process, every look-up of a result-cache entry noted (the cache's one reading method, wrapped:
# an eval's entries share one log file, so its opens no longer name a sample), written to a file at the end
DRIVER = textwrap.dedent(
    """
    import atexit, json, runpy, sys
    from autoresearch.runs.cache import SampleCache
    opened = []
    get = SampleCache.get
    def noted(self, artifact, n):
        opened.append(f"{artifact}-sample-{n}.jsonl")
        return get(self, artifact, n)
    SampleCache.get = noted
    report = sys.argv[1]
    atexit.register(lambda: open(report, "w").write(json.dumps(opened)))
    sys.argv = ["autoresearch", "run"]
    runpy.run_module("autoresearch.optimizer", run_name="__main__")
    """
)


def test_a_cycle_reads_each_of_head_s_stored_samples_once(tmp_path):
    repo = keep_then_drop(tmp_path / "r")
    report = tmp_path / "opened.json"
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(report)],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop"]
    # cycle 2's HEAD is the original, its sample 1 stored by cycle 1: opened by cycle 1's look-up before its
    # eval (absent then), and once by cycle 2, which counted it and then read it again before
    original = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    key = git(repo, "rev-parse", f"{original}:prompt.md").strip()
    reads = collections.Counter(json.loads(report.read_text()))
    assert reads[f"{key}-sample-1.jsonl"] == 2, reads
