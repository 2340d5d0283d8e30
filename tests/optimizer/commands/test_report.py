"""`autoresearch report`, and the warning about an eval with nothing to measure, wherever it is shown."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import scenario_repo, scores, state

GETTING_STARTED = Path(__file__).resolve().parents[3] / "docs" / "getting-started.md"


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
    assert [line.split(" ", 1)[1] for line in commits] == [
        "autoresearch cycle 5: raise b",
        "autoresearch cycle 2: raise a",
    ]
    assert lines[6:8] == commits
    assert "adopt: nothing to do, the commits are on your branch" in lines
    revert = f"git restore --source={original[:12]} --staged --worktree -- prompt.md && git commit -m 'Revert autoresearch' -- prompt.md"
    assert f"revert: {revert}" in lines
    assert report.stdout in run.stdout  # the run ended with the same summary


def test_mutation_and_eval_attempts_lost_with_their_ray_node_are_said_in_report_and_status(tmp_path):
    """The lines as a run on ray writes them (tests/runs/executors/test_ray.py loses a node for real)."""
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0.5)}}, 3: {"write": {"prompt.md": scores(a=1, b=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0.5)}, plan)
    assert cli(repo, "run").returncode == 0
    path = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[1]["mutation_lost_attempts"], lines[2]["mutation_lost_attempts"] = 2, 1
    lines[2]["eval_lost_attempts"] = 4
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = cli(repo, "report").stdout
    assert (
        "  lost with their Ray node: 3 mutation attempt(s) (cycle 2, 3), "
        "what they spent is not known and not in the cost above"
    ) in report.splitlines()
    assert (
        "  lost with their Ray node: 4 eval task attempt(s) (cycle 3), "
        "what they spent is not known and not in the cost above"
    ) in report.splitlines()
    reported = json.loads(cli(repo, "report", "--json").stdout)
    assert (reported["lost_attempts"], reported["eval_lost_attempts"]) == (3, 4)
    status = [line for line in cli(repo, "status", "exp").stdout.splitlines() if line.startswith("    cycle")]
    assert "lost" not in status[0]
    assert status[1].endswith("(2 mutation attempt(s) lost with their Ray node, spend not known)")
    assert status[2].endswith(
        "(1 mutation attempt(s) and 4 eval task attempt(s) lost with their Ray node, spend not known)"
    )


@pytest.mark.parametrize(
    "score, which", [(0, "0 on every test (is the eval broken?)"), (1, "1 on every test (nothing left to teach)")]
)
def test_an_original_scoring_the_same_on_every_test_is_warned_on_the_console_in_the_log_state_and_report(
    tmp_path, score, which
):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=score, b=score)}, {2: {"write": {"prompt.md": scores(a=0.5)}}}
    )
    done = cli(repo, "run")
    assert f"the original artifact scores {which}" in done.stderr
    log = [json.loads(line) for line in (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").open()]
    assert [event["level"] for event in log if which in event["event"]] == ["warning"]
    assert state(repo)["warning"] == f"original scores {which}"
    assert f"warning: original scores {which}" in cli(repo, "report").stdout


def printed(output: str, label: str) -> str:
    """The command a summary prints after `label:` (or on the line after it, when that line says to run it)."""
    lines = [line.strip() for line in output.splitlines()]
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{label}:"))
    return lines[at + 1] if lines[at].endswith("run:") else lines[at][len(label) + 1 :].strip()


def shell(repo, command: str) -> None:
    subprocess.run(command, shell=True, cwd=repo, check=True, capture_output=True, env={**os.environ, **GIT_ENV})


def tree(root) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def docs_revert(original: str, artifact: str) -> str:
    """The revert command of docs/getting-started.md with its placeholders filled in."""
    line = next(
        ln for ln in GETTING_STARTED.read_text().splitlines() if ln.startswith("git restore --source=<original sha>")
    )
    return line.replace("<original sha>", original).replace("<artifact>", artifact)


DIRECTORY_PLAN = {  # adds a file, deletes one, changes one: a revert must undo all three
    2: {
        "write": {"skill/a.md": scores(a=1, b=0), "skill/new.md": "b 1\n"},
        "delete": ["skill/old.md"],
        "summary": "reshape",
    },
}


def test_the_printed_revert_restores_a_directory_exactly_and_leaves_the_users_other_work(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"skill/a.md": scores(a=0), "skill/old.md": "b 0\n"}, DIRECTORY_PLAN)
    initial = git(repo, "rev-parse", "HEAD").strip()
    before = tree(repo / "skill")
    run = cli(repo, "run")
    assert run.returncode == 0, run.stderr
    assert tree(repo / "skill") != before
    (repo / "notes.txt").write_text("the user's staged work\n")
    git(repo, "add", "notes.txt")
    revert = printed(cli(repo, "report").stdout, "revert")
    assert revert == printed(run.stdout, "revert") == docs_revert(original=initial[:12], artifact="skill")
    shell(repo, revert)
    assert tree(repo / "skill") == before
    assert git(repo, "diff", "--name-only", "HEAD~2", "HEAD").strip() == ""  # the revert commit undid the experiment
    assert git(repo, "status", "--porcelain").strip() == "A  notes.txt"  # still staged, not committed


def test_in_worktree_mode_the_printed_adopt_then_revert_restore_the_original_on_the_users_branch(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"skill/a.md": scores(a=0), "skill/old.md": "b 0\n"}, DIRECTORY_PLAN, config={"worktree": True}
    )
    before = tree(repo / "skill")
    run = cli(repo, "run")
    assert run.returncode == 0, run.stderr
    assert tree(repo / "skill") == before  # the user's checkout was never touched
    assert "your branch has none of these commits until you merge autoresearch/exp" in run.stdout
    shell(repo, printed(run.stdout, "adopt"))
    assert tree(repo / "skill") != before and git(repo, "branch", "--show-current").strip() == "main"
    shell(repo, printed(run.stdout, "revert"))
    assert tree(repo / "skill") == before
    assert git(repo, "status", "--porcelain").strip() == ""
