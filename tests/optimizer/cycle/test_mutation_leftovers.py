"""What a mutation leaves behind when it does not end well: an earlier attempt's changelog never
names a later candidate, and writes outside the artifact are undone however the mutator ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

RUNS = ".autoresearch/runs/exp"


def test_a_failed_attempts_changelog_is_kept_with_it_and_never_names_the_next_candidate(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=0) + "FAIL 3\n"}, "summary": "idea that breaks the eval"},
        3: {"write": {"prompt.md": scores(a=1)}, "stdout": "set a to one"},  # no mutation.md this time
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r["mutation"]) for r in lines[1:3]] == [
        ("error", "idea that breaks the eval"),
        ("keep", "set a to one"),
    ]
    assert git(repo, "log", "-1", "--format=%s").strip() == "autoresearch cycle 3: set a to one"
    failed_attempt = repo / RUNS / lines[1]["run_dir"]
    assert (failed_attempt / "mutation.md").read_text().startswith("idea that breaks the eval")
    assert (failed_attempt / "candidate.patch").exists()


def test_a_failing_mutator_that_wrote_outside_the_artifact_is_an_out_of_scope_error_and_undone(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1), "notes.txt": "stray\n"}, "exit": 3}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    cli(repo, "run")
    line = iterations(repo)[1]
    assert (line["decision"], line["error_reason"]) == ("error", "out-of-scope")
    assert "changed files outside the artifact" in line["error"]
    assert not (repo / "notes.txt").exists()
    assert (repo / "prompt.md").read_text() == scores(a=0)


HOLDING_MUTATOR = (  # writes outside the artifact, then waits to be interrupted
    "python3 -c \"import pathlib, time; pathlib.Path('stray.txt').write_text('x'); "
    "pathlib.Path('.autoresearch/mutating').touch(); time.sleep(600)\""
)


def test_an_interrupt_during_the_mutation_undoes_its_writes_outside_the_artifact(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {},
        config={"mutator": {"command": HOLDING_MUTATOR}, "stop": {"max_cycles": 2}},
    )
    (repo / "mine.txt").write_text("the user's own edit\n")  # an untracked file of the user's stays as it is
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / ".autoresearch/mutating").exists())
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert not (repo / "stray.txt").exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=all").splitlines() == ["?? mine.txt"]
    assert (repo / "mine.txt").read_text() == "the user's own edit\n"
