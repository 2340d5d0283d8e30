"""A sandboxed command mutator never sees the results directory, so its run keeps no mirror of the experiment's
files (a folder and a link a run directory, two listings a cycle, guarding nothing), and removes the one an
earlier run without the sandbox left: a restore after a kill would otherwise link back from it, stale, what
was deleted since."""

from __future__ import annotations

import pytest
import yaml

from autoresearch.plumbing import sandbox
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores


def test_a_sandboxed_run_keeps_no_mirror_and_removes_the_one_an_earlier_run_left(tmp_path):
    if why := sandbox.unavailable():
        pytest.fail(f"the kernel sandbox is needed here: {why}")  # tests/run installs bubblewrap: never skipped
    plan = {2: {"write": {"prompt.md": scores(a=0.5)}, "summary": "up"}, 3: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0)}, plan, config={"stop": {"max_cycles": 2}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    (mirror,) = (repo / ".git" / "autoresearch").glob("exp-*/mirror")
    first = iterations(repo)[0]["run_dir"]  # the original's: evaluated before the mutation of cycle 2
    assert (mirror / first / "index.jsonl").stat().st_ino == (
        repo / ".autoresearch" / "runs" / "exp" / first / "index.jsonl"
    ).stat().st_ino
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    settings["mutator"]["sandbox"] = "on"
    settings["stop"]["max_cycles"] = 1
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep", "keep"]
    assert not mirror.exists()
