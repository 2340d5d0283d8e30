"""Budgets, deadlines and the STOP file end a run cleanly and say why."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from autoresearch.optimizer.deadline import deadline
from autoresearch.plumbing.errors import InvalidInput
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state

PLAN = {n: {"write": {"prompt.md": scores(a=n / 10, b=0)}} for n in range(2, 8)}


def test_budget_stops_before_a_cycle_that_would_overspend_and_warns_on_the_way(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN)
    # each cycle costs 0.002 (two tests at 0.001): after 2 cycles, a third would reach 0.006
    done = cli(repo, "run", "--budget-usd", "0.005")
    assert done.returncode == 0, done.stderr
    assert len(iterations(repo)) == 2
    assert state(repo)["stop_reason"] == "budget"
    assert "50% of the budget spent" in done.stderr and "80% of the budget spent" in done.stderr


def test_a_deadline_in_the_past_lets_only_the_original_run(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN)
    past = (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat()
    assert cli(repo, "run", "--until", past).returncode == 10
    assert len(iterations(repo)) == 1
    assert state(repo)["stop_reason"] == "deadline"


def test_a_stop_file_stops_at_the_next_boundary_and_is_consumed(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN)
    meta = repo / ".autoresearch/runs/exp/_autoresearch"
    meta.mkdir(parents=True)
    (meta / "STOP").touch()
    assert cli(repo, "run").returncode == 10
    assert len(iterations(repo)) == 1 and state(repo)["stop_reason"] == "stop-requested"
    assert not (meta / "STOP").exists()
    assert cli(repo, "run", "--max-cycles", "3").returncode == 0  # the next run goes on
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3]


def test_a_stop_during_mutation_keeps_the_candidate_as_a_patch_and_records_no_cycle(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=1), ".autoresearch/runs/exp/_autoresearch/STOP": ""}}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan)
    assert cli(repo, "run").returncode == 10
    assert len(iterations(repo)) == 1 and state(repo)["stop_reason"] == "stop-requested"
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    patches = list((repo / ".autoresearch/runs/exp").glob("*-c0002/candidate.patch"))
    assert len(patches) == 1 and "+b 1" in patches[0].read_text()


def test_until_accepts_a_local_time_of_day_and_takes_the_next_one():
    now = datetime(2026, 11, 21, 22, 30).astimezone()
    assert deadline("07:00", 0, now) == now.replace(hour=7, minute=0) + timedelta(days=1)
    assert deadline("23:15", 0, now) == now.replace(hour=23, minute=15)
    assert deadline("23:15", 0.5, now) == now + timedelta(minutes=30)  # the earlier limit wins
    assert deadline(None, 0, now) is None
    with pytest.raises(InvalidInput, match="stop.until"):
        deadline("7 o'clock", 0, now)


def test_a_best_at_the_target_score_stops_with_exit_0_instead_of_mutating_on(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0)}}, 3: {"write": {"prompt.md": scores(a=1, b=1)}}}
    # without the target, cycles 4-6 would find no plan: three mutator errors, exit 40
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan, config={"stop": {"max_cycles": 6, "target_score": 1.0}}
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "keep"]
    assert state(repo)["stop_reason"] == "target"
    assert "finished (target)" in done.stdout
    again = cli(repo, "run")  # already there: no cycle is made, and that is not a success
    assert again.returncode == 10, again.stderr
    assert len(iterations(repo)) == 3 and "last run: no cycle" in again.stdout


def test_the_target_score_follows_a_minimized_metric(tmp_path):
    plan = {2: {"write": {"train.py": "METRIC 1.40\n"}}, 3: {"write": {"train.py": "METRIC 0.90\n"}}}
    metric = {"pattern": r"val_bpb:\s*([0-9.]+)", "goal": "minimize"}
    repo = scenario_repo(
        tmp_path / "r",
        {"train.py": "METRIC 1.50\n"},
        plan,
        config={"eval": {"metric": metric}, "stop": {"max_cycles": 6}},
    )
    done = cli(repo, "run", "--target-score", "1.0")  # 1.50 and 1.40 are above it, 0.90 is below: the third stops
    assert done.returncode == 0, done.stderr
    assert [r["score"] for r in iterations(repo)] == [1.5, 1.4, 0.9]
    assert state(repo)["stop_reason"] == "target"


def test_a_target_score_off_the_0_to_1_scale_is_refused(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {}, config={"stop": {"target_score": 1.5}})
    assert_one_line_error(cli(repo, "run"), 30, "autoresearch.yaml", "stop.target_score")
    assert not (repo / ".autoresearch").exists()
