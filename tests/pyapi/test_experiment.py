"""`from autoresearch import Experiment`: the loop run in-process, on a real repository, by a scripted mutator."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from autoresearch import Experiment
from autoresearch.plumbing.errors import Interrupted, InvalidInput
from tests.helpers.repos import git
from tests.helpers.scenario import scenario_repo, scores, wait_for
from tests.optimizer.startup.test_config_after_crash import killed_during_a_mutation

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "a passes"},
    3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "worse"},
    4: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "both pass"},
}


def test_run_cycles_then_read_iterations_and_status(tmp_path, monkeypatch):
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.5, b=0)}, PLAN)
    monkeypatch.chdir(tmp_path)  # the config names its repository, wherever the notebook runs

    experiment = Experiment(repo / "autoresearch.yaml")
    first = experiment.run(cycles=3)
    assert (first.cycles, first.improved, first.stop_reason, first.succeeded) == (3, True, "max_cycles", True)
    assert [(i.cycle, i.decision) for i in experiment.iterations()] == [(1, "keep"), (2, "keep"), (3, "drop")]

    again = experiment.run(cycles=1)  # resumes the experiment, as `run` does
    assert (again.cycles, again.improved) == (1, True)
    assert experiment.iterations()[-1].decision == "keep" and experiment.iterations()[-1].score == 1.0
    status = experiment.status()
    assert status["running"] is False and status["experiment"] == "exp"
    assert status["state"]["best_score"] == 1.0 and status["state"]["status"] == "finished"
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""


def test_overrides_are_the_configs_dotted_keys(tmp_path):
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.5, b=0)}, PLAN)
    experiment = Experiment(repo / "autoresearch.yaml", {"experiment": "other", "stop.target_score": 0.5})
    outcome = experiment.run(cycles=5)
    assert (outcome.stop_reason, outcome.cycles) == ("target", 2)
    assert experiment.status()["experiment"] == "other" and len(experiment.iterations()) == 2


def test_a_bad_config_raises_before_anything_runs(tmp_path):
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0)}, PLAN, config={"stop": {"max_cycles": -1}})
    with pytest.raises(InvalidInput, match=r"autoresearch.yaml.*stop\.max_cycles") as raised:
        Experiment(repo / "autoresearch.yaml")
    assert raised.value.exit_code == 30
    assert not (repo / ".autoresearch").exists()


def test_the_callers_signal_handlers_come_back_after_a_run(tmp_path):
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.5, b=0)}, PLAN)
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    Experiment(repo / "autoresearch.yaml").run(cycles=1)
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_the_command_line_does_not_load_the_api():
    code = "import sys, autoresearch.optimizer.cli; print('autoresearch.experiment' in sys.modules)"
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_ctrl_c_interrupts_every_run_of_one_process(tmp_path):
    """A notebook runs again after an interrupted run: the second run must still stop on Ctrl-C."""
    hold = {"hold": True, "write": {"prompt.md": scores(a=1, b=1)}}
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.5, b=0)}, {2: hold, 3: hold})
    experiment = Experiment(repo / "autoresearch.yaml")
    for _ in range(2):
        (repo / ".autoresearch" / "mutating").unlink(missing_ok=True)
        with _ctrl_c_while_mutating(repo), pytest.raises(Interrupted):
            experiment.run(cycles=2)
        assert (repo / "prompt.md").read_text() == scores(a=0.5, b=0)  # restored to HEAD


@contextmanager
def _ctrl_c_while_mutating(repo: Path) -> Iterator[None]:
    """SIGINT to this process once the mutator holds; if the run ignores it, release the mutator after 10 s so the
    test fails instead of hanging."""
    finished = threading.Event()

    def interrupt() -> None:
        wait_for(lambda: (repo / ".autoresearch" / "mutating").exists())
        os.kill(os.getpid(), signal.SIGINT)
        if not finished.wait(10):
            (repo / ".autoresearch" / "go-on").touch()

    thread = threading.Thread(target=interrupt)
    thread.start()
    try:
        yield
    finally:
        finished.set()
        thread.join()


def test_two_experiments_in_one_process_each_write_only_their_own_daemon_log(tmp_path):
    """A notebook runs two experiments at once, in two threads: logging is process-wide, their logs are not."""
    hold = {"hold": True, "write": {"prompt.md": scores(a=1, b=1)}, "summary": "held"}
    repos = {name: scenario_repo(tmp_path / name, {"prompt.md": scores(a=0.5, b=0)}, {2: hold}) for name in ("a", "b")}
    experiments = {name: Experiment(repo / "autoresearch.yaml", {"experiment": name}) for name, repo in repos.items()}
    outcomes: dict[str, object] = {}
    threads = {
        name: threading.Thread(target=lambda n=name: outcomes.update({n: experiments[n].run(cycles=2)}))
        for name in repos
    }
    for name in ("a", "b"):  # b starts while a's mutation is under way
        threads[name].start()
        wait_for(lambda n=name: (repos[n] / ".autoresearch" / "mutating").exists())
    for name in ("a", "b"):  # a's cycle ends while b runs
        (repos[name] / ".autoresearch" / "go-on").touch()
        threads[name].join(timeout=120)
    assert sorted(outcomes) == ["a", "b"]
    for name, repo in repos.items():
        lines = [json.loads(line) for line in experiments[name].paths.log.read_text().splitlines()]
        assert {line["experiment"] for line in lines if "experiment" in line} == {name}
        assert [line["cycle"] for line in lines if line["event"] == "finished"] == [2]


def test_a_run_settles_a_rollback_killed_before_its_commit_first(tmp_path):
    """A `rollback` killed after staging the old version left the artifact dirty: `run` refused it (exit 30)."""
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0.5, b=0)}, PLAN)
    experiment = Experiment(repo / "autoresearch.yaml")
    experiment.run(cycles=2)
    head = git(repo, "rev-parse", "HEAD")
    killed = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "rollback", "--to", "1"],
        cwd=repo,
        capture_output=True,
        env={**os.environ, "AUTORESEARCH_TEST_KILL_AT": "rollback-restored:1"},
    )
    assert killed.returncode == -signal.SIGKILL
    outcome = experiment.run(cycles=1)
    assert outcome.cycles == 1 and experiment.iterations()[-1].mutation == "worse"
    assert git(repo, "rev-parse", "HEAD") == head and (repo / "prompt.md").read_text() == scores(a=1, b=0)
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""


def test_an_unreadable_config_names_the_mutation_whose_undo_is_pending(tmp_path):
    """As `autoresearch run` says it (tests/optimizer/startup/test_config_renamed_after_crash.py): a daemon killed
    during a mutation whose mutator deleted or broke the config; its undo waits for that experiment's start."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"hold": True}, 3: {}})
    experiment = Experiment(repo / "autoresearch.yaml")
    killed_during_a_mutation(repo)
    original = (repo / "autoresearch.yaml").read_text()
    for damage in ("deleted", "stop: [\n"):
        if damage == "deleted":
            (repo / "autoresearch.yaml").unlink()
        else:
            (repo / "autoresearch.yaml").write_text(damage)

        for read in (lambda: Experiment(repo / "autoresearch.yaml"), lambda: experiment.run(cycles=1)):
            with pytest.raises(InvalidInput, match="killed during a mutation in this checkout") as raised:
                read()
            assert "/.autoresearch/runs/exp/" in str(raised.value)  # the interrupted run's directory
    (repo / "autoresearch.yaml").write_text(original)
    assert experiment.run(cycles=1).cycles == 1
