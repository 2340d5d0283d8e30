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


APPENDS_THEN_SCORE = r"""
import os, sys, time
from pathlib import Path
with open("prompt.md", "a") as artifact:  # a file artifact, written by the eval that scores it
    artifact.write("eval was here\n")
if os.environ.get("HOLD") and sys.argv[1].endswith(os.environ["HOLD"]):  # until the test kills the daemon
    Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
    (Path(sys.argv[1]) / "held").write_text("")
    time.sleep(600)
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


@pytest.mark.parametrize("hold", [None, "-c0002"])
def test_what_the_eval_writes_into_a_file_artifact_is_never_committed_even_after_a_kill(tmp_path, hold):
    """A file artifact was left to the scope checks, which do not look at the artifact: the eval's line (or an
    edit of the user's during the eval) was committed by the KEEP though never evaluated."""
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0.5, b=0.5)},
        {2: {"write": {"prompt.md": scores(a=1.0, b=1.0)}, "summary": "better"}},
        config={"eval": {"command": "python3 evals/appends.py {run_dir} prompt.md"}},
        extra_files={"evals/appends.py": APPENDS_THEN_SCORE},
    )
    if hold:
        env = {**os.environ, **GIT_ENV, "HOLD": hold}
        daemon = subprocess.Popen([sys.executable, "-m", "autoresearch.optimizer", "run"], cwd=repo, env=env)
        wait_for(lambda: any((repo / RUNS).glob("*/held")), timeout=120)
        daemon.kill()
        daemon.wait(timeout=30)

    run(repo)

    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert (repo / "prompt.md").read_text() == scores(a=1.0, b=1.0)
    assert "eval was here" not in git(repo, "log", "-p", "--", "prompt.md")
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    copies = [p.read_text() for p in (repo / RUNS).rglob("eval-writes/prompt.md")]
    assert len(copies) >= 2 and all(c.endswith("eval was here\n") for c in copies)  # saved, outside git


PUTS_IN_ITS_PLACE = r"""
import os, sys, time
from pathlib import Path
what, prompt = os.environ["WHAT"], Path("prompt.md")
scored = Path(sys.argv[1]) / "scored.md"  # what is scored: the artifact as it was given
scored.parent.mkdir(parents=True, exist_ok=True)
scored.write_bytes(prompt.read_bytes())
if what == "link":  # to a file outside the checkout, that the next mutator would write through
    prompt.unlink()
    prompt.symlink_to(os.environ["OUTSIDE"])
elif what == "folder":
    prompt.unlink()
    prompt.mkdir()
    (prompt / "x.md").write_text("eval was here\n")
    os.mkfifo(prompt / "pipe")
elif what == "fifo":  # the next mutator, and the daemon, would block on it
    prompt.unlink()
    os.mkfifo(prompt)
elif what == "chmod":  # its mode alone: a KEEP commits the executable bit
    prompt.chmod(0o755)
else:  # a line appended to the user's private prompt
    with open(prompt, "a") as artifact:
        artifact.write("eval was here\n")
if os.environ.get("HOLD") and sys.argv[1].endswith(os.environ["HOLD"]):  # until the test kills the daemon
    (Path(sys.argv[1]) / "held").write_text("")
    time.sleep(600)
os.execvp("python3", ["python3", "evals/score.py", sys.argv[1], str(scored)])
"""


@pytest.mark.parametrize(
    ("what", "kill_at"),
    [
        ("link", None),
        ("folder", None),
        ("folder", "-c0001"),  # killed while the folder is there: the next start took it for a directory artifact
        ("fifo", None),
        ("chmod", None),
        ("append", None),
        ("append", "eval-writes-saved:2"),  # the candidate's writes saved, the file not yet put back
    ],
)
def test_anything_the_eval_puts_in_a_file_artifacts_place_is_undone_its_mode_kept(tmp_path, what, kill_at):
    """The undo of a file artifact put back its bytes only when a regular file was left there, with the mode of
    what the eval left: a link (which the next mutator wrote through, out of the checkout), a folder (a kill
    then made every start a traceback) or a FIFO (on which the next mutation blocked for good) stayed; a `chmod +x` was committed by the KEEP; a private
    prompt (0600) was made readable by all."""
    outside = tmp_path / "outside.md"
    outside.write_text("the user's\n")
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0.5, b=0.5)},
        {2: {"write": {"prompt.md": scores(a=1.0, b=1.0)}, "summary": "better"}},
        config={"eval": {"command": "python3 evals/puts.py {run_dir}", "timeout_s": 60}},
        extra_files={"evals/puts.py": PUTS_IN_ITS_PLACE},
    )
    (repo / "prompt.md").chmod(0o600)
    env = {"WHAT": what, "OUTSIDE": str(outside)}
    if kill_at and kill_at.startswith("-c"):
        daemon = subprocess.Popen(
            [sys.executable, "-m", "autoresearch.optimizer", "run"],
            cwd=repo,
            env={**os.environ, **GIT_ENV, **env, "HOLD": kill_at},
        )
        wait_for(lambda: any((repo / RUNS).glob("*/held")), timeout=120)
        daemon.kill()
        daemon.wait(timeout=30)
    elif kill_at:
        assert cli(repo, "run", env={**env, ENV: kill_at}, timeout=120).returncode == -signal.SIGKILL
    done = cli(repo, "run", env=env, timeout=120)

    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert outside.read_text() == "the user's\n"
    assert (repo / "prompt.md").read_text() == scores(a=1.0, b=1.0)
    if not kill_at:  # (the restore of a candidate the kill left, as a DROP's, writes the file as git does)
        assert os.lstat(repo / "prompt.md").st_mode == 0o100600
    assert git(repo, "ls-tree", "HEAD", "prompt.md").startswith("100644 blob")
    assert "eval was here" not in git(repo, "log", "-p", "--", "prompt.md")
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""
    saved = list((repo / RUNS).rglob("eval-writes/prompt.md"))
    assert len(saved) >= (2 if what != "fifo" else 0)  # the baseline's eval and the candidate's: kept outside git


@pytest.mark.parametrize(
    ("what", "setting"),
    [
        ("link", {"search": {"candidates": 2}, "stop": {"max_cycles": 2, "max_convergence": 10}}),
        ("folder", {"mutator": {"sandbox": "auto"}}),
        ("append", {"worktree": True}),
    ],
)
def test_a_file_artifacts_undo_holds_with_parallel_candidates_the_sandbox_and_a_worktree(tmp_path, what, setting):
    """Evaluated in a parallel candidate's worktree, after a sandboxed mutation, or in the experiment's worktree:
    the same undo, and nothing of the eval's committed on any branch."""
    outside = tmp_path / "outside.md"
    outside.write_text("the user's\n")
    better = {"write": {"prompt.md": scores(a=1.0, b=1.0)}, "summary": "better"}
    worse = {"write": {"prompt.md": scores(a=0.1, b=0.1)}, "summary": "worse"}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0.5, b=0.5)},
        {"2.0": better, "2.1": worse} if "search" in setting else {2: better},
        config={"eval": {"command": "python3 evals/puts.py {run_dir}", "timeout_s": 60}, **setting},
        extra_files={"evals/puts.py": PUTS_IN_ITS_PLACE},
    )
    done = cli(repo, "run", env={"WHAT": what, "OUTSIDE": str(outside)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert outside.read_text() == "the user's\n"
    assert "eval was here" not in git(repo, "log", "-p", "--all", "--", "prompt.md")
    assert git(repo, "ls-tree", "HEAD", "prompt.md").startswith("100644 blob")
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_checkout_that_converts_the_artifact_is_left_as_it_is_by_an_eval_that_writes_nothing(tmp_path):
    """With `eol=crlf` the checkout's bytes are not the blob git stores, HEAD's key: the baseline's eval, which
    writes nothing, was taken for one that wrote the artifact, and the undo rewrote it with the stored bytes."""
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0.5, b=0.5)},
        {},
        config={"stop": {"max_cycles": 1}},
        extra_files={".gitattributes": "prompt.md text eol=crlf\n"},
    )
    (repo / "prompt.md").unlink()
    git(repo, "checkout", "--", "prompt.md")
    checked_out = (repo / "prompt.md").read_bytes()
    assert b"\r\n" in checked_out

    done = cli(repo, "run")

    assert done.returncode == 10, done.stderr
    assert ADVICE not in done.stderr
    assert (repo / "prompt.md").read_bytes() == checked_out
    assert list((repo / RUNS).rglob("eval-writes")) == []
