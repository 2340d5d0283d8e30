"""Every gate and every objective weight, in range and out: a value out of range is one line naming the file
and the field, exit 30, before anything runs. YAML's `true` is no number, and a number no boolean."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from autoresearch.optimizer import config
from autoresearch.plumbing.errors import InvalidInput
from autoresearch.policies.objectives import OBJECTIVES
from tests.helpers.repos import assert_one_line_error, cli
from tests.helpers.scenario import scenario_repo, scores

BASE = {
    "artifact": "prompt.md",
    "eval": {"command": "python3 evals/score.py {run_dir} prompt.md"},
    "mutator": {"provider": "command", "command": "python3 tools/mutate.py"},
}
METRIC = {"command": "echo 'val: 1'", "metric": {"pattern": "val: (\\S+)"}}

GATES = [
    ("correctness_min", [0, 0.8, 1], [-5, -0.01, 1.01, 1e300, "1e300", True, math.inf, math.nan]),
    ("max_cost_increase", [0, 0.15, 3], [-0.1, True, math.inf, math.nan, "cheap"]),
    ("latency_p95_max_ms", [0.5, 30000], [0, -1, True, math.inf]),
    ("min_improvement", [0, 0.01, 1], [-0.01, 1.5, 1e308, True, math.inf]),
    ("no_new_failures", [True, False], [1, 0, "yes", 0.5]),
    ("must_pass", [[], ["a", "refuses-unsafe-request"]], ["a", [""], [1], [True]]),
]
WEIGHTS = [0.25, 1, 2]
BAD_WEIGHTS = [True, False, -1, -0.5, math.inf, math.nan, "heavy", [1]]


def _load(tmp_path: Path, settings: dict) -> config.Config:
    path = tmp_path / "autoresearch.yaml"
    path.write_text(yaml.safe_dump({**BASE, **settings}))
    return config.load(path)


def _refused(tmp_path: Path, settings: dict, field: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        _load(tmp_path, settings)
    message = str(raised.value)
    assert raised.value.exit_code == 30 and "\n" not in message
    assert message.startswith(f"{tmp_path / 'autoresearch.yaml'}: field '{field}") and f"'{field}" in message


@pytest.mark.parametrize(("gate", "good", "bad"), GATES, ids=[g[0] for g in GATES])
def test_each_gate_in_range_is_taken_and_out_of_range_refused(tmp_path, gate, good, bad):
    for value in good:
        assert getattr(_load(tmp_path, {"gates": {gate: value}}).gates, gate) == value
    for value in bad:
        _refused(tmp_path, {"gates": {gate: value}}, f"gates.{gate}")


@pytest.mark.parametrize("name", list(OBJECTIVES))
def test_each_weight_in_range_is_taken_and_out_of_range_refused(tmp_path, name):
    others = {} if name == "correctness" else {"correctness": 1}
    for weight in WEIGHTS:
        assert _load(tmp_path, {"objectives": {**others, name: weight}}).objectives[name] == weight
    for weight in BAD_WEIGHTS:
        _refused(tmp_path, {"objectives": {**others, name: weight}}, f"objectives.{name}")


def test_gates_on_a_metric_take_the_metrics_scale_but_no_boolean(tmp_path):
    """A metric (val_bpb, an accuracy in percent) is any finite number: its floor and least gain are too."""
    taken = _load(tmp_path, {"eval": METRIC, "gates": {"correctness_min": 80, "min_improvement": 2.5}}).gates
    assert (taken.correctness_min, taken.min_improvement) == (80, 2.5)
    assert _load(tmp_path, {"eval": METRIC, "gates": {"correctness_min": -3}}).gates.correctness_min == -3
    _refused(tmp_path, {"eval": METRIC, "gates": {"correctness_min": True}}, "gates.correctness_min")
    _refused(tmp_path, {"eval": METRIC, "gates": {"min_improvement": -1}}, "gates.min_improvement")


@pytest.mark.parametrize(
    ("setting", "field"),
    [
        ("gates:\n  correctness_min: 1e300\n", "gates.correctness_min"),
        ("gates:\n  correctness_min: -5\n", "gates.correctness_min"),
        ("gates:\n  min_improvement: 1.0e+308\n", "gates.min_improvement"),
        ("objectives:\n  correctness: true\n", "objectives.correctness"),
    ],
)
def test_the_run_exits_30_on_one_line_and_writes_nothing(tmp_path, setting, field):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0.5)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    with (repo / "autoresearch.yaml").open("a") as f:
        f.write(setting)
    done = cli(repo, "run")
    assert_one_line_error(done, 30, "autoresearch.yaml", f"field '{field}'")
    assert not (repo / ".autoresearch" / "runs").exists()
