"""`autoresearch report`, and the warning about an eval with nothing to measure, wherever it is shown."""

from __future__ import annotations

import json

import pytest

from tests.helpers.repos import cli, git
from tests.helpers.scenario import scenario_repo, scores, state


def test_report_shows_cycles_decisions_scores_cost_commits_and_how_to_adopt_or_revert(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=0.5)}, "summary": "raise a"},
        3: {"write": {"prompt.md": scores(a=0.5, b=0.5)}},
        4: {"exit": 2},
        5: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "raise b"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan)
    original = git(repo, "rev-parse", "HEAD").strip()
    run = cli(repo, "run")
    report = cli(repo, "report")
    assert report.returncode == 0, report.stderr
    lines = [line.strip() for line in report.stdout.splitlines()]
    assert lines[:5] == [
        "experiment exp: 5 cycles, finished (max_cycles)",
        "last run: cycles 1-5",
        "keeps 3, drops 1, errors 1",
        "score 0.2500 (original) -> 1.0000 (best, cycle 5)",
        "cost $0.0080",  # four evals of two tests at $0.001 a test; the failed mutation ran none
    ]
    commits = git(repo, "log", "--format=%h %s", f"{original}..HEAD").splitlines()
    assert [line.split(" ", 1)[1] for line in commits] == ["autoresearch cycle 5: raise b", "autoresearch cycle 2: raise a"]
    assert lines[6:8] == commits
    assert "adopt: nothing to do, the commits are on your branch" in lines
    revert = f"git restore --source={original[:12]} --staged --worktree -- prompt.md && git commit -m 'Revert autoresearch' -- prompt.md"
    assert f"revert: {revert}" in lines
    assert report.stdout in run.stdout  # the run ended with the same summary


@pytest.mark.parametrize("score, which", [(0, "0 on every test (is the eval broken?)"), (1, "1 on every test (nothing left to teach)")])
def test_an_original_scoring_the_same_on_every_test_is_warned_on_the_console_in_the_log_state_and_report(tmp_path, score, which):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=score, b=score)}, {2: {"write": {"prompt.md": scores(a=0.5)}}})
    done = cli(repo, "run")
    assert f"the original artifact scores {which}" in done.stderr
    log = [json.loads(line) for line in (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").open()]
    assert [event["level"] for event in log if which in event["event"]] == ["warning"]
    assert state(repo)["warning"] == f"original scores {which}"
    assert f"warning: original scores {which}" in cli(repo, "report").stdout
