"""An eval that writes inside a directory artifact while it runs, as an AgentV 5 host environment does when its
`workdir` (relative to an eval file kept inside the skill it tests) lies in the artifact: its `setup` and the
target write there. What the eval wrote was never the mutator's edit nor measured as one, and may hold a secret
from the environment: a KEEP must not commit it to the user's branch."""

from __future__ import annotations

import os

import pytest

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

SETUP_THEN_SCORE = r"""
import os, sys
from pathlib import Path
work = Path("prompt/work")  # the recipe's workdir, inside the artifact
work.mkdir(exist_ok=True)
(work / "ready.txt").write_text("token=" + os.environ["MY_SECRET"] + "\n")
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


@pytest.mark.xfail(
    strict=True,
    reason="in the checkout (one candidate) the KEEP stages the whole artifact, what the eval wrote in it included",
)
def test_what_the_eval_writes_inside_the_artifact_is_never_committed(tmp_path):
    plan = {2: {"write": {"prompt/a.md": scores(a=1.0, b=1.0)}, "summary": "better"}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": scores(a=0.5, b=0.5), "prompt/b.md": "\n"},
        plan,
        config={"eval": {"command": "python3 evals/setup.py {run_dir} prompt"}},
        extra_files={"evals/setup.py": SETUP_THEN_SCORE},
    )
    done = cli(repo, "run", env={**os.environ, "MY_SECRET": "s3cr3t"})
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt/a.md"]
    assert "s3cr3t" not in git(repo, "log", "-p")
