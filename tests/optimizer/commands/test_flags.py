"""`autoresearch run` flags and the config fields they override, as the loop applies them."""

from __future__ import annotations

import pytest

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state

# b rises by 0.09: a tie at the default threshold (0.1), so wins-losses drops it; a win at 0.05;
# and the mean score rises, so the score rule keeps it.
SMALL_GAIN = {2: {"write": {"prompt.md": scores(a=1, b=0.09)}}}


@pytest.mark.parametrize(
    "flags, config, decision",
    [
        ([], {}, "drop"),
        (["--rule", "score"], {}, "keep"),
        ([], {"policy": {"rule": "score"}}, "keep"),
        (["--rule", "wins-losses"], {"policy": {"rule": "score"}}, "drop"),
        (["--threshold", "0.05"], {}, "keep"),
        ([], {"policy": {"threshold": 0.05}}, "keep"),
        (["--threshold", "0.1"], {"policy": {"threshold": 0.05}}, "drop"),
    ],
    ids=[
        "default",
        "rule-flag",
        "rule-config",
        "rule-flag-wins",
        "threshold-flag",
        "threshold-config",
        "threshold-flag-wins",
    ],
)
def test_the_keep_rule_and_threshold_come_from_the_flag_or_else_the_config(tmp_path, flags, config, decision):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=1, b=0)}, SMALL_GAIN, config=config)
    done = cli(repo, "run", *flags)
    assert done.returncode == {"keep": 0, "drop": 10}[decision], done.stderr
    assert iterations(repo)[1]["decision"] == decision


def test_artifact_flag_picks_what_is_optimized_and_names_the_default_experiment(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {2: {"write": {"other.md": scores(a=1)}}},
        config={"experiment": None, "eval": {"command": "python3 evals/score.py {run_dir} other.md"}},
        extra_files={"other.md": scores(a=0)},
    )
    done = cli(repo, "run", "--artifact", "other.md")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo, "autoresearch-other.md")] == ["keep", "keep"]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["other.md"]
    assert (repo / "prompt.md").read_text() == scores(a=0)


@pytest.mark.parametrize(
    "flags, config",
    [(["--results-dir", "out/results"], {}), ([], {"results_dir": "out/results"})],
    ids=["flag", "config"],
)
def test_a_results_dir_elsewhere_holds_the_results_and_gets_its_own_exclude_entry(tmp_path, flags, config):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}}, config=config
    )
    assert cli(repo, "run", *flags).returncode == 0
    assert (repo / "out/results/runs/exp/_autoresearch/iterations.jsonl").is_file()
    assert not (repo / ".autoresearch").exists()
    assert "/out/results/" in (repo / ".git/info/exclude").read_text().splitlines()
    assert git(repo, "status", "--porcelain").strip() == ""


def test_max_convergence_flag_overrides_the_config(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=0) + "# longer\n"}}, 3: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)  # the config says 10
    assert cli(repo, "run", "--max-convergence", "1").returncode == 10
    assert [line["decision"] for line in iterations(repo)] == ["keep", "drop"]
    assert state(repo)["stop_reason"] == "converged"


def config_moved(tmp_path, target: str):
    """A scenario repo whose autoresearch.yaml was moved to `target` (relative to tmp_path)."""
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    moved = tmp_path / target
    moved.parent.mkdir(parents=True, exist_ok=True)
    (repo / "autoresearch.yaml").rename(moved)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "move the config")
    return repo, moved


def test_a_config_inside_a_repository_names_that_repository_from_any_directory(tmp_path):
    repo, config = config_moved(tmp_path, "repo/configs/exp.yaml")
    (tmp_path / "cron-home").mkdir()
    done = cli(tmp_path / "cron-home", "run", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]


def test_a_config_outside_any_repository_applies_to_the_repository_of_the_current_directory(tmp_path):
    repo, _ = config_moved(tmp_path, "configs/a.yaml")
    done = cli(repo, "run", "--config", "../configs/a.yaml")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]
    assert "keeps 2, drops 0, errors 0" in cli(repo, "report", "--config", "../configs/a.yaml").stdout
    assert_one_line_error(cli(tmp_path, "run", "--config", "configs/a.yaml"), 30, "not inside a git repository")
