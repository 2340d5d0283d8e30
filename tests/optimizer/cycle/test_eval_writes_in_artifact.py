"""An eval that writes inside a directory artifact while it runs, as an AgentV 5 host environment does when its
`workdir` (relative to an eval file kept inside the skill it tests) lies in the artifact: its `setup` and the
target write there. What the eval wrote was never the mutator's edit nor measured as one, and may hold a secret
from the environment: a KEEP must not commit it to the user's branch."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

SETUP_THEN_SCORE = r"""
import os, sys
from pathlib import Path
work = Path("prompt/work")  # the recipe's workdir, inside the artifact
work.mkdir(exist_ok=True)
(work / "ready.txt").write_text("token=" + os.environ["MY_SECRET"] + "\n")
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


RUNS = ".autoresearch/runs/exp"
ADVICE = "the artifact changed during the eval (the eval or someone else wrote it;"


def make(tmp_path, plan: dict, **config: dict):
    return scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": scores(a=0.5, b=0.5), "prompt/b.md": "\n"},
        plan,
        config={"eval": {"command": "python3 evals/setup.py {run_dir} prompt"}, **config},
        extra_files={"evals/setup.py": SETUP_THEN_SCORE},
    )


def run(repo, code: int = 0):
    done = cli(repo, "run", env={**os.environ, "MY_SECRET": "s3cr3t"})
    assert done.returncode == code, done.stderr
    return done


def saved(repo) -> list[str]:
    """What the eval wrote, as saved under the run directories."""
    return sorted(p.read_text() for p in (repo / RUNS).rglob("eval-writes/work/ready.txt"))


def test_what_the_eval_writes_inside_the_artifact_is_never_committed(tmp_path):
    repo = make(tmp_path, {2: {"write": {"prompt/a.md": scores(a=1.0, b=1.0)}, "summary": "better"}})
    done = run(repo)
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt/a.md"]
    assert "s3cr3t" not in git(repo, "log", "-p")
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert done.stderr.count(ADVICE) == 1
    assert saved(repo) == ["token=s3cr3t\n"] * 2  # the baseline's run and the candidate's, kept outside git


def test_with_two_candidates_the_eval_writes_are_undone_and_the_pick_is_kept(tmp_path):
    plan = {
        "2.0": {"write": {"prompt/a.md": scores(a=1.0, b=1.0)}, "summary": "better"},
        "2.1": {"write": {"prompt/a.md": scores(a=0.1, b=0.1)}, "summary": "worse"},
    }
    repo = make(tmp_path, plan, search={"candidates": 2}, stop={"max_cycles": 2, "max_convergence": 10})
    done = run(repo)
    line = iterations(repo)[1]
    assert line["decision"] == "keep", line
    assert "changed after it was evaluated" not in json.dumps(line)
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt/a.md"]
    assert "s3cr3t" not in git(repo, "log", "-p")
    assert done.stderr.count(ADVICE) == 1


def test_the_baseline_evals_writes_never_reach_the_next_mutations_diff(tmp_path):
    repo = make(tmp_path, {2: {"write": {"prompt/a.md": scores(a=0.1, b=0.1)}, "summary": "worse"}})
    run(repo, 10)  # no improvement
    assert [r["decision"] for r in iterations(repo)] == ["keep", "drop"]
    patches = [p.read_text() for p in (repo / RUNS).rglob("candidate.patch")]
    assert len(patches) == 1 and "prompt/a.md" in patches[0]
    assert "ready.txt" not in patches[0] and "s3cr3t" not in patches[0]
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


WRITES_THEN_SCORE = r"""
import os, sys, time
from pathlib import Path
Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
(Path(sys.argv[1]) / "ran").write_text("")  # this run directory's eval ran (not a cache hit)
work = Path("prompt/work")
work.mkdir(exist_ok=True)
(work / "ready.txt").write_text("token=" + os.environ["MY_SECRET"] + "\n")
with open("prompt/b.md", "a") as tracked:  # a file of the artifact, changed
    tracked.write("eval was here\n")
if os.environ.get("HOLD") and sys.argv[1].endswith(os.environ["HOLD"]):  # until the test kills the daemon
    (Path(sys.argv[1]) / "held").write_text("")
    time.sleep(600)
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


@pytest.mark.parametrize(
    "kill_at",
    [
        "-c0001",  # killed from outside while the baseline's eval runs, after it wrote
        "-c0002",  # the candidate's
        "eval-writes-saved:1",
        "eval-writes-removed:1",  # a changed file of the artifact saved and removed, not yet put back
        "eval-writes-saved:2",
        "eval-writes-removed:2",
        "eval-writes-removed:3",  # in the candidate's undo
    ],
)
def test_a_kill_during_the_eval_or_its_undo_is_finished_by_the_next_start(tmp_path, kill_at):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": scores(a=0.5, b=0.5), "prompt/b.md": "\n"},
        {2: {"write": {"prompt/a.md": scores(a=1.0, b=1.0)}, "summary": "better"}},
        config={"eval": {"command": "python3 evals/writes.py {run_dir} prompt"}},
        extra_files={"evals/writes.py": WRITES_THEN_SCORE},
    )
    if kill_at.startswith("-c"):
        env = {**os.environ, **GIT_ENV, "MY_SECRET": "s3cr3t", "HOLD": kill_at}
        daemon = subprocess.Popen([sys.executable, "-m", "autoresearch.optimizer", "run"], cwd=repo, env=env)
        wait_for(lambda: any((repo / RUNS).glob("*/held")), timeout=120)
        daemon.kill()
        daemon.wait(timeout=30)
    else:
        assert cli(repo, "run", env={"MY_SECRET": "s3cr3t", ENV: kill_at}).returncode == -signal.SIGKILL
    run(repo)
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    assert "s3cr3t" not in git(repo, "log", "-p", "--", "prompt") and "eval was here" not in git(
        repo, "log", "-p", "--", "prompt"
    )
    assert (repo / "prompt/b.md").read_text() == "\n"
    recovered = "".join(p.read_text() for p in (repo / RUNS).rglob("recovered-*.patch"))
    assert "s3cr3t" not in recovered and "eval was here" not in recovered  # not taken for a candidate
    evaluated = [ran.parent for ran in (repo / RUNS).rglob("ran")]
    assert len(evaluated) >= 3  # the killed one among them
    for run_dir in evaluated:  # what each eval wrote, saved whole
        assert (run_dir / "eval-writes/work/ready.txt").read_text() == "token=s3cr3t\n", run_dir
        assert (run_dir / "eval-writes/b.md").read_text() == "\neval was here\n", run_dir
