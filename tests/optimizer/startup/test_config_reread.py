"""The config the recovery puts back is read again with the start's locks kept: two starts after a kill -9
during a mutation whose config was edited meanwhile (the mutator's edit, to the recovery), the second of which
read the edited config before the first put it back. Let go and taken again, the locks let that second start
in, to run with the config the recovery undid. Made deterministic with the fault points: each start stops
itself (SIGSTOP) at its point until the test lets it go on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import yaml

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores
from tests.optimizer.startup.test_config_after_crash import PLAN, killed_during_a_mutation


def stopped_at(repo: Path, point: str, *args: str) -> subprocess.Popen:
    """`run` started in `repo`, returned once it stopped itself at the fault point `point`."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run", *args],
        cwd=repo,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", ENV: f"{point}:1:SIGSTOP"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, status = os.waitpid(proc.pid, os.WUNTRACED)  # blocks until it stops (or ends: then the test fails)
    assert os.WIFSTOPPED(status), f"{point}: ended before it: {status} {proc.stderr.read()}"
    return proc


def go_on(proc: subprocess.Popen) -> subprocess.CompletedProcess:
    os.kill(proc.pid, signal.SIGCONT)
    out, err = proc.communicate(timeout=180)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_a_start_that_read_the_undone_config_finds_the_locks_held_while_the_config_is_read_again(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN, config={"stop": {"max_cycles": 4}})
    original = (repo / "autoresearch.yaml").read_text()
    killed_during_a_mutation(repo)
    (repo / "autoresearch.yaml").write_text(original.replace("max_cycles: 4", "max_cycles: 9"))  # as a mutator would
    second = stopped_at(repo, "before-lock")  # it read the edited config, and is about to lock
    first = stopped_at(repo, "config-put-back")  # the recovery put the config back, and reads it again

    refused = go_on(second)
    resumed = go_on(first)

    assert refused.returncode == 30, refused.stderr  # the lock held: it never runs with the undone config
    assert f"locked by pid {first.pid}" in refused.stderr, refused.stderr
    assert resumed.returncode == 0, resumed.stderr
    assert (repo / "autoresearch.yaml").read_text() == original
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3, 4]  # the config put back ran, once
    assert git(repo, "status", "--porcelain").strip() == ""


def test_a_config_put_back_that_names_another_experiment_is_refused_and_the_next_start_runs_it(tmp_path):
    """The daemon ran from `other.yaml` (experiment `exp`); its mutator wrote `autoresearch.yaml` to name `exp`
    too. A start from `autoresearch.yaml` finds the interrupted mutation in `exp` and puts that file back, as it
    was (experiment `mine`): not the experiment whose locks the start holds."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN, config={"stop": {"max_cycles": 4}})
    ran = (repo / "autoresearch.yaml").read_text()
    mine = yaml.safe_dump({**yaml.safe_load(ran), "experiment": "mine"}, sort_keys=False)
    (repo / "other.yaml").write_text(ran)
    (repo / "autoresearch.yaml").write_text(mine)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "two configs")
    killed_during_a_mutation(repo, "-c", "other.yaml")
    (repo / "autoresearch.yaml").write_text(ran)  # as the mutator would

    refused = cli(repo, "run")

    assert refused.returncode == 50, refused.stderr  # IntegrityError
    assert "names experiment 'mine'" in refused.stderr, refused.stderr
    assert (repo / "autoresearch.yaml").read_text() == mine  # put back by the recovery, which is done
    assert not (repo / ".autoresearch/runs/mine").exists()
    assert cli(repo, "run", "-c", "other.yaml").returncode == 0  # the interrupted experiment goes on
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3, 4]


def undone_with_a_planted_eval(tmp_path: Path) -> tuple[Path, str, Path]:
    """A repository whose daemon was killed during a mutation, and whose config then names an eval command of
    the mutator's (one that touches the returned path): the repository, its config as it was, that path."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN, config={"stop": {"max_cycles": 4}})
    original = (repo / "autoresearch.yaml").read_text()
    killed_during_a_mutation(repo)
    planted = tmp_path / "planted-eval-ran"
    settings = yaml.safe_load(original)
    settings["eval"]["command"] = f"touch '{planted}'; {settings['eval']['command']}"
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))  # as a mutator would
    return repo, original, planted


def test_a_start_that_read_the_undone_config_before_another_start_put_it_back_and_ended_runs_the_one_on_disk(tmp_path):
    """The second start read the mutator's config (its own eval command) before the first start's recovery put
    the file back; the first then ran to its end and let the locks go before the second took them. The second
    finds no undo left to do: it must still run with the config on disk, never with the one it read."""
    repo, original, planted = undone_with_a_planted_eval(tmp_path)
    second = stopped_at(repo, "before-lock")  # it read the mutator's config, and is about to lock

    first = cli(repo, "run")  # puts the config back, runs its four cycles, lets the locks go
    assert first.returncode == 0, first.stderr
    assert (repo / "autoresearch.yaml").read_text() == original
    done = go_on(second)

    assert not planted.exists(), done.stderr  # the mutator's eval command never ran
    assert (repo / "autoresearch.yaml").read_text() == original
    assert {r.get("eval_key") for r in iterations(repo)} == {iterations(repo)[0]["eval_key"]}, done.stderr


def test_a_start_killed_between_the_put_back_and_the_read_leaves_the_next_start_the_config_on_disk(tmp_path):
    """kill -9 after the recovery put the config back (the mutator's, with its own eval command, undone) and
    before the start read it again: the next start finds no undo left, and runs with the config on disk."""
    repo, original, planted = undone_with_a_planted_eval(tmp_path)
    killed = stopped_at(repo, "config-put-back")
    os.kill(killed.pid, signal.SIGKILL)
    killed.communicate(timeout=60)

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert not planted.exists(), resumed.stderr
    assert (repo / "autoresearch.yaml").read_text() == original
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3, 4]
    assert git(repo, "status", "--porcelain").strip() == ""
