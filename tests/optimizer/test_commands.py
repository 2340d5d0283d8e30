"""init, eval, report and demo as a user runs them."""

from __future__ import annotations

import json

import yaml

from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import scenario_repo, scores


def test_demo_runs_the_whole_loop_without_any_key(tmp_path):
    done = cli(tmp_path, "demo", "--dir", str(tmp_path / "demo"), env={"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""})
    assert done.returncode == 0, done.stderr
    assert "0.4000 (original) -> 0.8000 (best" in done.stdout
    lines = [json.loads(x) for x in (tmp_path / "demo/.autoresearch/runs/demo/_autoresearch/iterations.jsonl").open()]
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop", "keep", "keep", "drop"]
    assert (tmp_path / "demo/.autoresearch/runs/demo/_autoresearch/trajectory.html").is_file()
    assert git(tmp_path / "demo", "status", "--porcelain").strip() == ""


def test_init_guesses_artifact_and_eval_and_writes_a_valid_commented_config(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompts/support.md": "hi\n", "evals/score.py": "print(1)\n"})
    done = cli(repo, "init")
    assert done.returncode == 0, done.stderr
    text = (repo / "autoresearch.yaml").read_text()
    config = yaml.safe_load(text)
    assert config["artifact"] == "prompts/support.md"
    assert config["eval"]["command"] == "python3 evals/score.py {run_dir}"
    assert "# Stop after this many cycles in a row without a KEEP" in text
    assert cli(repo, "init").returncode == 30  # never overwrites without --force


def test_eval_runs_once_and_prints_score_and_pass_rates(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=0)}, {})
    (repo / "prompt.md").write_text(scores(a=1, b=1))  # the working tree, uncommitted, is what runs
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert "score 1.0000 over 2 test(s)" in done.stdout
    assert "100.0%  check-b" in done.stdout


def test_eval_failure_exits_40_with_the_reason(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": "FAIL 3\n"}, {})
    done = cli(repo, "eval")
    assert done.returncode == 40 and "exited 3" in done.stderr


def test_report_lists_decisions_commits_and_how_to_revert(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}
    )
    assert cli(repo, "run").returncode == 0
    done = cli(repo, "report")
    assert done.returncode == 0, done.stderr
    assert "keeps 2, drops 0, errors 0" in done.stdout
    assert "autoresearch cycle 2: fix a" in done.stdout
    assert "revert: git checkout" in done.stdout
    assert cli(repo, "report", "nope").returncode == 30


def test_init_points_an_eval_file_at_the_built_in_runner(tmp_path):
    repo = make_repo(tmp_path / "r", {"SKILL.md": "skill\n", "evals/evals.json": '{"evals": []}\n'})
    assert cli(repo, "init").returncode == 0
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    assert config["artifact"] == "SKILL.md" and config["eval"] == {"file": "evals/evals.json", "timeout_s": 1800}
