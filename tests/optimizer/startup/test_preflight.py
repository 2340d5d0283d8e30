"""Before anything detaches (or a foreground run writes anything), everything that costs nothing is checked.

`init` writes `path/to/eval` when it cannot guess the eval; `start` used to say
"started" with it, and the user found a failed experiment in the morning.
"""

from __future__ import annotations

import pytest

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import scenario_repo, scores
from tests.optimizer.daemon.test_attach import Terminal

EVAL_FILE = "tests:\n  - id: one\n    input: hello\n    criteria: says hello\n    assertions:\n      - type: contains\n        value: hello\n"
TARGET = {
    "name": "default",
    "provider": "anthropic",
    "model": "${{ PREFLIGHT_MODEL }}",
    "api_key": "${{ PREFLIGHT_NO_KEY }}",
}

BROKEN = {
    "init's placeholder eval": (
        {"eval": {"command": "path/to/eval {run_dir}"}},
        ("autoresearch.yaml", "'eval.command'", "'path/to/eval'"),
    ),
    "a missing eval script": (
        {"eval": {"command": "python3 evals/scorer.py {run_dir}"}},
        ("'eval.command'", "'evals/scorer.py'"),
    ),
    "an eval not on PATH": ({"eval": {"command": "no-such-eval-program {run_dir}"}}, ("'eval.command'", "not on PATH")),
    "a metric eval that cannot start": (
        {"eval": {"command": "./train.sh", "metric": {"pattern": "loss: ([0-9.]+)"}}},
        ("'eval.command'", "'./train.sh'"),
    ),
    "a missing mutator script": (
        {"mutator": {"command": "tools/mutate.sh"}},
        ("'mutator.command'", "'tools/mutate.sh'"),
    ),
    "a target without its key": (
        {"eval": {"command": None, "file": "evals/one.eval.yaml", "targets": [TARGET]}},
        ("autoresearch.yaml (eval.targets)", "'targets[default].api_key'", "PREFLIGHT_NO_KEY"),
    ),
    "a command target that cannot start": (
        {
            "eval": {
                "command": None,
                "file": "evals/one.eval.yaml",
                "targets": [{"name": "default", "provider": "cli", "command": "no-such-agent {PROMPT}"}],
            }
        },
        ("autoresearch.yaml (eval.targets)", "'targets[default].command'", "'no-such-agent' is not on PATH"),
    ),
}


def broken_repo(tmp_path, case: str):
    config, _ = BROKEN[case]
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {2: {"write": {"prompt.md": scores(a=1)}}},
        config=config,
        extra_files={"evals/one.eval.yaml": EVAL_FILE},
    )


@pytest.fixture(params=sorted(BROKEN))
def case(request) -> str:
    return request.param


@pytest.mark.parametrize(
    "command", [["start"], ["run"], ["run", "--worktree"], ["schedule", "--cron", "0 1 * * *", "--detach"]]
)
def test_what_cannot_run_fails_in_the_foreground_with_one_line_and_nothing_written(tmp_path, case, command):
    repo = broken_repo(tmp_path, case)
    done = cli(repo, *command, env={"PREFLIGHT_MODEL": "claude-sonnet-4-5"})
    assert_one_line_error(done, 30, *BROKEN[case][1])
    assert "started" not in done.stdout and "scheduled" not in done.stdout
    assert not (repo / ".autoresearch").exists()
    assert git(repo, "branch", "--list", "autoresearch/*") == ""  # no worktree, no branch


def test_run_in_a_terminal_fails_before_following_anything(tmp_path):
    repo = broken_repo(tmp_path, "init's placeholder eval")
    term = Terminal(repo)
    term.read_until(b"field 'eval.command': program 'path/to/eval' does not exist")
    assert term.proc.wait(timeout=30) == 30
    assert b"following pid" not in term.seen
    assert not (repo / ".autoresearch").exists()
