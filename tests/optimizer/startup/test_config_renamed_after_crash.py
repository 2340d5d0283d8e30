"""A mutator killed mid-mutation (or killing its daemon itself) after it rewrote the config to name another
experiment or results directory: the next start, reading that config, would look for the interrupted mutation
in the other experiment's folder, find none, and run with what the mutator left (here an eval that scores
everything 1) never undone. The start refuses instead, naming the experiment whose undo is pending."""

from __future__ import annotations

import yaml

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import EVAL, held_in_a_mutation, iterations, scenario_repo, scores
from tests.optimizer.startup.test_config_after_crash import killed_during_a_mutation

FORGED = "import sys, pathlib\npathlib.Path(sys.argv[1], 'scores.txt').write_text('a 1\\nb 1\\n')\n"


def plan(config: dict) -> dict:
    return {
        2: {
            "write": {"autoresearch.yaml": yaml.safe_dump(config, sort_keys=False), "evals/score.py": FORGED},
            "summary": "rename the experiment",
            "hold": True,
        },
        3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix both"},
    }


def renamed(tmp_path, key: str, value: str):
    first = scenario_repo(tmp_path / "probe", {"prompt.md": scores(a=0, b=0)}, {2: {}, 3: {}})
    config = yaml.safe_load((first / "autoresearch.yaml").read_text()) | {key: value}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan(config))
    killed_during_a_mutation(repo)
    return repo


def test_a_config_the_mutator_renamed_is_refused_and_nothing_runs_with_its_eval(tmp_path):
    for key, value in (("experiment", "other"), ("results_dir", ".elsewhere")):
        repo = renamed(tmp_path / key, key, value)
        assert (repo / "evals/score.py").read_text() == FORGED

        started = cli(repo, "run")

        assert started.returncode == 50, started.stderr  # IntegrityError
        assert "killed during a mutation" in started.stderr and "exp" in started.stderr, started.stderr
        assert "may have rewritten autoresearch.yaml to name this experiment" in started.stderr, started.stderr
        assert (repo / "evals/score.py").read_text() == FORGED  # left for the experiment's own start to undo
        ran = [p.relative_to(repo).as_posix() for p in repo.glob("**/iterations.jsonl") if ".git" not in p.parts]
        assert ran == [".autoresearch/runs/exp/_autoresearch/iterations.jsonl"], ran  # nothing ran in the other
        git(repo, "checkout", "--", "autoresearch.yaml")  # as the message says: the config put back

        resumed = cli(repo, "run")

        assert resumed.returncode == 0, resumed.stderr
        assert (repo / "evals/score.py").read_text() == EVAL  # undone by the experiment's own recovery
        assert [r["cycle"] for r in iterations(repo)][-1] == 3


def test_a_config_the_mutator_deleted_or_broke_is_refused_with_what_to_do(tmp_path):
    """No config to read, no experiment to recover: the error says a mutation's undo is pending and how to
    reach it, instead of only `no such config file (run autoresearch init ...)`."""
    repo = renamed(tmp_path, "experiment", "other")
    for damage in ("deleted", "stop: [\n"):
        if damage == "deleted":
            (repo / "autoresearch.yaml").unlink()
        else:
            (repo / "autoresearch.yaml").write_text(damage)

        started = cli(repo, "run")

        assert started.returncode != 0
        assert "killed during a mutation in this checkout" in started.stderr, started.stderr
        assert "/.autoresearch/runs/exp/" in started.stderr, started.stderr  # the interrupted run's directory
    git(repo, "checkout", "--", "autoresearch.yaml")
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert (repo / "evals/score.py").read_text() == EVAL


def test_a_config_not_found_while_a_daemon_mutates_names_no_killed_daemon(tmp_path):
    """A guard armed by a daemon that is alive is a mutation under way: `run` with a config that is nowhere (a
    subfolder finds the checkout's own, so a name no folder holds) must not send the user to recover from a kill
    that never happened."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"hold": True, "summary": "wait"}})
    proc = held_in_a_mutation(repo)
    try:
        started = cli(repo / "evals", "run", "--config", "renamed.yaml")
    finally:
        (repo / ".autoresearch/go-on").touch()
        proc.wait(timeout=120)

    assert_one_line_error(started, 30, "no such config file")
    assert "killed" not in started.stderr, started.stderr


def test_a_lost_untracked_config_comes_back_at_a_start_with_any_config_of_the_experiment(tmp_path):
    """An untracked config (as `init` leaves it) that the mutator deleted has no `git checkout` to bring it back:
    the message says what does, and doing it brings back the user's own config, the stand-in saved."""
    plan = {
        2: {"delete": ["autoresearch.yaml"], "hold": True, "summary": "lose the config"},
        3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix both"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan)
    original = (repo / "autoresearch.yaml").read_text()
    git(repo, "rm", "-q", "--cached", "autoresearch.yaml")
    git(repo, "commit", "-qm", "untrack the config")
    killed_during_a_mutation(repo)

    refused = cli(repo, "run")

    assert_one_line_error(refused, 30, "no such config file", "any valid config naming the same experiment")
    stand_in = original.replace("max_cycles: 3", "max_cycles: 2")
    assert stand_in != original
    (repo / "autoresearch.yaml").write_text(stand_in)

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert (repo / "autoresearch.yaml").read_text() == original
    assert [r["cycle"] for r in iterations(repo)][-1] == 3
