"""Objectives and promotion gates through the real CLI, with an eval that reports cost and latency."""

from __future__ import annotations

import pytest
import yaml

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import JSON_WRITING, iterations, scenario_repo
from tests.runs.test_e2e_builtin import EVAL_YAML

# The artifact spells out each test's result: `<test> <score> <cost_usd> <duration_ms> [<tool calls>]`.
MEASURING_EVAL = (
    r"""
import os, sys  # no json or pathlib (tests.helpers.scenario.JSON_WRITING says why)
"""
    + JSON_WRITING
    + r"""
with open(os.path.join(sys.argv[1], "index.jsonl"), "w") as out:
    for line in open(sys.argv[2]).read().splitlines():
        words = line.split()
        score = number(float(words[1]))
        row = (f'{{"test_id": {text(words[0])}, "score": {score}, "cost_usd": {number(float(words[2]))}, '
               f'"duration_ms": {number(float(words[3]))}, "token_usage": {{"input": 100, "output": 20}}, '
               f'"scores": [{{"name": {text("check-" + words[0])}, "type": "contains", "score": {score}}}]')
        if len(words) > 4:
            row += f', "trace": {{"event_count": {int(words[4])}, "tool_calls": {{"read": {int(words[4])}}}}}'
        out.write(row + "}\n")
"""
)


def measured(**tests: tuple) -> str:
    return "".join(f"{name} {' '.join(str(v) for v in values)}\n" for name, values in tests.items())


def repo_with(tmp_path, original: str, plan: dict[int, str], **config):
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": original},
        {cycle: {"write": {"prompt.md": text}, "summary": f"candidate {cycle}"} for cycle, text in plan.items()},
        config={"eval": {"command": "python3 evals/measure.py {run_dir} prompt.md", "timeout_s": 30}, **config},
        extra_files={"evals/measure.py": MEASURING_EVAL},
    )


def test_a_cost_gate_drops_a_better_candidate_that_costs_too_much_and_names_the_gate(tmp_path):
    original = measured(a=(0.5, 0.01, 100), b=(0.5, 0.01, 300))
    pricey = measured(a=(1, 0.02, 100), b=(1, 0.02, 300))  # every test better, cost doubled
    frugal = measured(a=(1, 0.011, 100), b=(0.5, 0.011, 300))  # better, +10%
    repo = repo_with(tmp_path, original, {2: pricey, 3: frugal}, gates={"max_cost_increase": 0.15})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "drop", "keep"]
    blocked = lines[1]
    assert blocked["gate"] == "max_cost_increase"
    assert blocked["reason"].startswith("blocked by gate max_cost_increase: cost $0.02 -> $0.04 (+100% > +15%)")
    assert "wins 2 > losses 0" in blocked["reason"]  # what the rule said stays on the line
    assert blocked["objectives"]["cost"] == 0.04 and (blocked["wins"], blocked["losses"]) == (2, 0)
    assert "gate" not in lines[2] and lines[2]["objectives"]["cost"] == 0.022
    assert lines[0]["objectives"] == {
        "correctness": 0.5,
        "cost": 0.02,
        "tokens": 240,
        "latency_p50": 200,
        "latency_p95": 290,
        "size": 2,
    }
    assert (repo / "prompt.md").read_text() == frugal
    assert git(repo, "status", "--porcelain").strip() == ""
    chart = (repo / ".autoresearch/runs/exp/_autoresearch/trajectory.html").read_text()
    assert 'class="gated" data-cycle="2" data-gate="max_cost_increase"' in chart


def test_a_safety_gate_that_kept_out_the_only_candidate_the_rule_would_keep_exits_20(tmp_path):
    original = measured(a=(0.5, 0.01, 100), b=(1, 0.01, 100), c=(0.5, 0.01, 100))
    unsafe = measured(a=(1, 0.01, 100), b=(0.9, 0.01, 100), c=(1, 0.01, 100))  # better overall, b regresses
    repo = repo_with(tmp_path, original, {2: unsafe}, gates={"must_pass": ["b"]})
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr
    drop = iterations(repo)[1]
    assert (drop["decision"], drop["gate"]) == ("drop", "must_pass")
    assert "test 'b' regressed: 1 -> 0.9" in drop["reason"]
    assert (repo / "prompt.md").read_text() == original


def test_another_gate_that_kept_out_every_candidate_is_no_improvement_not_a_safety_stop(tmp_path):
    original = measured(a=(0.5, 0.01, 100))
    repo = repo_with(tmp_path, original, {2: measured(a=(1, 0.01, 5000))}, gates={"latency_p95_max_ms": 1000})
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    drop = iterations(repo)[1]
    assert drop["gate"] == "latency_p95_max_ms" and "latency p95 5000 ms > 1000 ms" in drop["reason"]
    assert "gate blocked" in done.stderr


def test_a_safety_gate_on_an_assertion_does_not_exit_20_once_a_later_candidate_is_kept(tmp_path):
    original = measured(a=(0.5, 0.01, 100), b=(1, 0.01, 100), c=(0.5, 0.01, 100))
    unsafe = measured(a=(1, 0.01, 100), b=(0.9, 0.01, 100), c=(1, 0.01, 100))
    safe = measured(a=(1, 0.01, 100), b=(1, 0.01, 100), c=(0.5, 0.01, 100))
    repo = repo_with(tmp_path, original, {2: unsafe, 3: safe}, gates={"must_pass": ["check-b"]})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r.get("gate")) for r in lines] == [("keep", None), ("drop", "must_pass"), ("keep", None)]
    assert "assertion 'check-b' regressed" in lines[1]["reason"]


def test_weights_keep_a_cheaper_candidate_of_equal_correctness_that_correctness_alone_drops(tmp_path):
    original = measured(a=(1, 0.04, 100, 8), b=(0.5, 0.04, 100, 8))
    cheaper = measured(a=(1, 0.01, 100, 8), b=(0.5, 0.01, 100, 8))
    plain = repo_with(tmp_path / "plain", original, {2: cheaper})
    assert cli(plain, "run").returncode == 10
    assert iterations(plain)[1]["decision"] == "drop"
    weighted = repo_with(tmp_path / "weighted", original, {2: cheaper}, objectives={"correctness": 0.5, "cost": 0.5})
    done = cli(weighted, "run")
    assert done.returncode == 0, done.stderr
    keep = iterations(weighted)[1]
    # cost normalised against HEAD: 0.04 / 0.01 = 4, 4 / (1 + 4) = 0.8 against HEAD's own 0.5
    assert (keep["decision"], keep["wins"], keep["losses"]) == ("keep", 2, 0)
    assert keep["composite"] == pytest.approx(0.5 * 0.75 + 0.5 * 0.8)
    assert keep["objectives"]["tool_calls"] == 16


def test_with_weights_a_correctness_gain_bought_with_many_more_tool_calls_is_dropped(tmp_path):
    original = measured(a=(0.5, 0.01, 100, 2), b=(0.5, 0.01, 100, 2))
    busy = measured(a=(0.7, 0.01, 100, 20), b=(0.7, 0.01, 100, 20))  # +0.2 per test, ten times the tool calls
    repo = repo_with(tmp_path, original, {2: busy}, objectives={"correctness": 0.5, "tool_calls": 0.5})
    assert cli(repo, "run").returncode == 10
    drop = iterations(repo)[1]
    assert (drop["decision"], drop["wins"], drop["losses"]) == ("drop", 0, 2)


def test_the_significant_rule_decides_on_the_composite(tmp_path):
    original = measured(a=(1, 0.04, 100), b=(1, 0.04, 100), c=(0, 0.04, 100))
    cheaper = measured(a=(1, 0.01, 100), b=(1, 0.01, 100), c=(0, 0.01, 100))
    repo = repo_with(
        tmp_path,
        original,
        {2: cheaper},
        objectives={"correctness": 0.5, "cost": 0.5},
        policy={"rule": "significant"},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    keep = iterations(repo)[1]
    assert keep["decision"] == "keep" and "better" in keep["reason"]


def test_a_gate_on_what_the_eval_does_not_report_is_one_warning_at_the_start(tmp_path):
    original = measured(a=(0.5, 0.01, 100))
    repo = repo_with(
        tmp_path,
        original,
        {2: measured(a=(1, 0.01, 100))},
        objectives={"correctness": 1, "robustness": 1},
        gates={"latency_p95_max_ms": 500, "must_pass": ["no-such-test"]},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    warned = [ln for ln in done.stderr.splitlines() if "does not report" in ln]
    assert len(warned) == 1, done.stderr
    assert "objectives.robustness (robustness)" in warned[0] and "gates.must_pass ('no-such-test')" in warned[0]
    assert "latency" not in warned[0]  # the eval reports durations


@pytest.mark.parametrize(
    ("setting", "needle"),
    [
        ({"objectives": {"correctness": 1, "speed": 1}}, "field 'objectives.speed': unknown objective"),
        ({"objectives": {"correctness": 1, "cost": -0.5}}, "field 'objectives.cost': -0.5 is negative"),
        ({"objectives": {"correctness": 0, "cost": 0}}, "field 'objectives': the weights sum to 0"),
        ({"objectives": {"cost": "cheap"}}, "field 'objectives.cost'"),
        ({"objectives": [0.5, 0.5]}, "field 'objectives'"),
        ({"gates": {"max_cost_increase": -0.1}}, "field 'gates.max_cost_increase'"),
        ({"gates": {"cost_max": 1}}, "field 'gates.cost_max'"),
        ({"gates": {"must_pass": "b"}}, "field 'gates.must_pass'"),
        ({"gates": "strict"}, "field 'gates'"),
    ],
)
def test_bad_objectives_and_gates_are_one_line_exit_30_and_nothing_written(tmp_path, setting, needle):
    repo = repo_with(tmp_path, measured(a=(0.5, 0.01, 100)), {2: measured(a=(1, 0.01, 100))}, **setting)
    done = cli(repo, "run")
    assert_one_line_error(done, 30, "autoresearch.yaml", needle)
    assert not (repo / ".autoresearch" / "runs").exists()


def test_weights_on_a_metric_eval_are_refused(tmp_path):
    repo = repo_with(tmp_path, "x\n", {2: "y\n"}, objectives={"correctness": 1})
    config = repo / "autoresearch.yaml"
    settings = yaml.safe_load(config.read_text())
    settings["eval"] = {"command": "echo 'val: 1'", "metric": {"pattern": "val: (\\S+)"}}
    config.write_text(yaml.safe_dump(settings))
    done = cli(repo, "run")
    assert_one_line_error(done, 30, "field 'objectives': weights need per-test scores")


def test_the_built_in_runner_reports_a_targets_cost_and_the_cost_gate_reads_it(tmp_path):
    # a cli target that answers with the prompt and says it cost a tenth of a cent per character
    target = (
        "import json, sys\ntext = open(sys.argv[1]).read()\n"
        "json.dump({'text': text, 'cost_usd': len(text) / 1000, 'duration_ms': 10 * len(text),"
        " 'token_usage': {'input': len(text), 'output': len(text)}}, open(sys.argv[-1], 'w'))\n"
    )
    suite = {**EVAL_YAML, "execution": {"target": "priced"}}  # greets (hello) and polite (please)
    targets = {
        "targets": [
            {"name": "priced", "provider": "cli", "command": "python3 ../tools/target.py {FILES} {OUTPUT_FILE}"}
        ]
    }
    wordy = "Hello, please " + "do " * 40 + "\n"
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": "Hi.\n"},
        {2: {"write": {"prompt.md": wordy}}, 3: {"write": {"prompt.md": "Hello, please.\n"}}},
        config={"eval": {"command": None, "file": "evals/suite.eval.yaml"}, "gates": {"max_cost_increase": 3}},
        extra_files={
            "evals/suite.eval.yaml": yaml.safe_dump(suite),
            ".agentv/targets.yaml": yaml.safe_dump(targets),
            "tools/target.py": target,
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["decision"], r.get("gate")) for r in lines] == [
        ("keep", None),
        ("drop", "max_cost_increase"),
        ("keep", None),
    ]
    original = lines[0]["objectives"]
    assert (original["correctness"], original["cost"], original["tokens"], original["size"]) == (0, 0.008, 16, 1)
    assert original["latency_p95"] >= original["latency_p50"] > 0
    assert lines[2]["objectives"]["cost"] == 0.03 and lines[2]["score"] == 1.0
