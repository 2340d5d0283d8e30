"""The holdout guard end to end: held-out tests stay out of the mutator's sight and veto a KEEP that hurts them."""

from __future__ import annotations

import json

import yaml

from autoresearch.policies.holdout import split
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores

START = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0}


def test_held_out_tests_are_hidden_and_a_keep_that_hurts_them_is_vetoed(tmp_path):
    held = sorted(split(START, 0.4, "exp"))  # two passing and two failing tests, by stratification
    held_pass = [t for t in held if START[t] == 1]
    train_fail = [t for t in START if t not in held and START[t] == 0]
    start = START
    plan = {
        2: {"write": {"prompt.md": scores(**(start | {train_fail[0]: 1}))}, "summary": "train gain, holdout unchanged"},
        3: {
            "write": {
                "prompt.md": scores(**(start | {train_fail[0]: 1, train_fail[1]: 1} | dict.fromkeys(held_pass, 0)))
            },
            "summary": "overfit",
        },
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(**start)}, plan, config={"eval": {"holdout": 0.4}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop"]
    assert lines[2]["wins"] == 1 and lines[2]["losses"] == 0 and lines[2]["holdout_regressed"] is True
    assert "vetoed: the holdout regressed" in lines[2]["reason"]
    assert lines[0]["holdout_score"] == 0.5 and lines[2]["holdout_score"] == 0.0 and lines[1]["holdout_score"] == 0.5
    results = repo / ".autoresearch"
    stored = json.loads((results / "runs/exp/_autoresearch/holdout.json").read_text())
    assert sorted(stored["tests"]) == held
    for line in lines:
        visible = (results / "runs/exp" / line["run_dir"] / "index.jsonl").read_text()
        hidden = (results / "holdout/exp" / line["run_dir"] / "index.jsonl").read_text()
        assert all(f'"{t}"' not in visible for t in held) and all(f'"{t}"' in hidden for t in held)
        assert not any(t in name for name in line["assertions"] for t in [f"check-{h}" for h in held])


def test_the_report_shows_the_holdout_beside_the_score(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(**START)},
        {2: {"write": {"prompt.md": scores(**START)}}},
        config={"eval": {"holdout": 0.4}},
    )
    cli(repo, "run")
    assert "holdout 0.5000 (original) -> 0.5000 (best)" in cli(repo, "report").stdout


def test_a_holdout_cannot_be_added_to_an_experiment_that_began_without_one(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(**START)}, {2: {"write": {"prompt.md": scores(**START)}}})
    cli(repo, "run")
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["eval"]["holdout"] = 0.4
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config))
    done = cli(repo, "run")
    assert done.returncode == 30 and "field 'eval.holdout'" in done.stderr and "--restart" in done.stderr
