"""Trials, repeats, target matrices, dependencies, budgets and scoped run overrides in the built-in runner.

What AgentV 4.42.4 implements (execution.trials, execution.targets,
depends_on, execution.budget_usd, a test's execution.threshold) is checked
against the real AgentV in tests/runs/compat/experiments; these tests cover
what only the Experiments page (and AgentV 5's source) describes, how
autoresearch's own settings combine with the file's, and hostile input.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from autoresearch.runs.compare import compare
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator, execute, prepare
from autoresearch.runs.parse import check
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.settings import run_options
from tests.helpers.repos import assert_one_line_error, cli, make_repo

SCRIPTED = """\
import json, os, sys
test_id, out, target = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
counter = os.path.join(here, f".calls-{test_id}-{target}")
calls = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(calls + 1))
script = json.load(open(os.path.join(here, "scripts.json"))).get(f"{test_id}@{target}") or json.load(open(os.path.join(here, "scripts.json"))).get(test_id, ["right"])
step = script[min(calls, len(script) - 1)]
if step == "!fail":
    sys.exit(1)
if step.startswith("!slow "):
    import time
    time.sleep(float(step.split()[1]))
    step = "right"
text, _, cost = step.partition("|")
open(out, "w").write(json.dumps({"text": text, "cost_usd": float(cost)}) if cost else text)
"""
RIGHT = [{"type": "contains", "value": "right"}]


def scripted(root: Path, suite: dict, scripts: dict[str, list[str]], targets: tuple[str, ...] = ("alpha",)) -> Path:
    """root/suite.eval.yaml on scripted cli targets: each call of a test takes the next step of its script."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    (root / "answer.py").write_text(SCRIPTED)
    (root / "scripts.json").write_text(json.dumps(scripts))
    (root / ".agentv").mkdir(exist_ok=True)
    command = f"{sys.executable} ./answer.py {{EVAL_ID}} {{OUTPUT_FILE}}"
    defined = [
        {"name": name, "provider": "cli", "command": f"{command} {name}", "timeout_seconds": 30} for name in targets
    ]
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": defined}))
    path = root / "suite.eval.yaml"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    return path


def run(path: Path, out: Path, target: str | None = None, **settings) -> dict[str, dict]:
    prepared = prepare(path, path.parent, target=target)
    execute(prepared, out, run_options(prepared.suite, **settings), show_progress=False)
    return {row["test_id"]: row for row in load_rows(out)}


def calls(root: Path, test_id: str, target: str = "alpha") -> int:
    counter = root / f".calls-{test_id}-{target}"
    return int(counter.read_text()) if counter.exists() else 0


def test_evaluate_options_repeat_pass_any_scores_the_best_and_runs_every_attempt_without_early_exit(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "evaluate_options": {"repeat": 3},
        "tests": [{"id": "flaky", "input": "q", "assertions": RIGHT}],
    }
    rows = run(scripted(tmp_path, suite, {"flaky": ["wrong", "right", "wrong"]}), tmp_path / "out")
    assert (rows["flaky"]["score"], rows["flaky"]["execution_status"]) == (1.0, "ok")
    assert calls(tmp_path, "flaky") == 3  # early_exit defaults to false: complete variance data
    assert [t["score"] for t in rows["flaky"]["trials"]] == [0.0, 1.0, 0.0]


def test_repeat_early_exit_stops_pass_any_at_the_first_pass_and_pass_all_at_the_first_fail(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "evaluate_options": {"repeat": {"count": 4, "strategy": "pass_any", "early_exit": True}},
        "tests": [
            {"id": "any", "input": "q", "assertions": RIGHT},
            {
                "id": "all",
                "input": "q",
                "assertions": RIGHT,
                "options": {"repeat": {"count": 4, "strategy": "pass_all", "early_exit": True}},
            },
        ],
    }
    rows = run(
        scripted(tmp_path, suite, {"any": ["wrong", "right"], "all": ["right", "wrong", "right"]}), tmp_path / "out"
    )
    assert (rows["any"]["score"], calls(tmp_path, "any")) == (1.0, 2)
    assert (rows["all"]["score"], calls(tmp_path, "all")) == (0.0, 2)
    assert rows["all"]["execution_status"] == "ok"  # AgentV: ok when any attempt was ok, whatever the strategy's score


def test_a_repeat_cost_limit_stops_a_test_mid_way_and_every_test_still_has_its_row(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "evaluate_options": {"repeat": {"count": 5, "strategy": "mean", "cost_limit_usd": 1.0}},
        "tests": [{"id": f"t{i}", "input": "q", "assertions": RIGHT} for i in range(3)],
    }
    scripts = {f"t{i}": ["wrong|0.4", "wrong|0.4", "wrong|0.4", "right|0.4"] for i in range(3)}
    rows = run(scripted(tmp_path, suite, scripts), tmp_path / "out")
    assert sorted(rows) == ["t0", "t1", "t2"]
    assert all(r["score"] == 0.0 and r["cost_limited"] and len(r["trials"]) == 3 for r in rows.values())
    assert all(abs(r["cost_usd"] - 1.2) < 1e-9 for r in rows.values())


def test_confidence_interval_scores_the_lower_bound(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "evaluate_options": {"repeat": {"count": 3, "strategy": "confidence_interval"}},
        "tests": [{"id": "t", "input": "q", "assertions": RIGHT}],
    }
    rows = run(scripted(tmp_path, suite, {"t": ["right", "right", "right"]}), tmp_path / "out")
    assert rows["t"]["score"] == 1.0  # no spread: the interval is the mean


def test_the_files_budget_makes_later_tests_budget_errors_as_agentv_does_and_eval_budget_usd_replaces_it(tmp_path):
    tests = [
        {"id": "b1", "input": "q", "assertions": RIGHT},
        {"id": "b2", "input": "q", "assertions": RIGHT, "depends_on": ["b1"]},
        {"id": "b3", "input": "q", "assertions": RIGHT, "depends_on": ["b2"]},
    ]
    suite = {"name": "s", "execution": {"target": "alpha"}, "evaluate_options": {"budget_usd": 1.0}, "tests": tests}
    scripts = {t["id"]: ["right|0.6"] for t in tests}
    rows = run(scripted(tmp_path / "a", suite, scripts), tmp_path / "a-out")
    assert [rows[t]["execution_status"] for t in ("b1", "b2", "b3")] == ["ok", "ok", "execution_error"]
    assert rows["b3"]["error"] == "Suite budget exceeded ($1.2000 / $1.0000)"
    ours = run(scripted(tmp_path / "b", suite, scripts), tmp_path / "b-out", budget_usd=1.0)
    assert sorted(ours) == ["b1", "b2"]  # eval.budget_usd: no test starts past it, and none is made an error


def test_eval_repeat_replaces_the_files_trials_and_validate_says_so(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha", "trials": {"count": 3, "strategy": "pass_at_k"}},
        "evaluate_options": {"max_concurrency": 2, "budget_usd": 5},
        "tests": [{"id": "t", "input": "q", "assertions": RIGHT}],
    }
    path = scripted(tmp_path, suite, {"t": ["wrong"]})
    config = EvalConfig(file="suite.eval.yaml", repeat=2, budget_usd=3, workers=4)
    options = BuiltinEvaluator(config, tmp_path).options(check(path)[0])
    assert (options.repeat, options.trials, options.budget_usd, options.suite_budget_usd, options.workers) == (
        2,
        None,
        3,
        0.0,
        4,
    )
    assert run_options(check(path)[0]).workers == 2  # no workers given: the file's max_concurrency
    (tmp_path / "autoresearch.yaml").write_text(
        yaml.safe_dump(
            {
                "artifact": "scripts.json",
                "eval": {"file": "suite.eval.yaml", "repeat": 2, "budget_usd": 3},
                "mutator": {"provider": "command", "command": "true"},
            }
        )
    )
    (tmp_path / ".git").rmdir()  # validate checks what run checks: a real repository, the artifact committed
    make_repo(tmp_path, {})
    done = cli(tmp_path, "validate")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replaced by eval.repeat: 2" in done.stdout and "replaced by eval.budget_usd: 3" in done.stdout


def test_a_matrix_run_keys_rows_by_test_and_target_so_compare_pairs_like_with_like(tmp_path):
    suite = {
        "name": "s",
        "execution": {"targets": ["alpha", "beta"]},
        "tests": [
            {"id": "t", "input": "q", "assertions": RIGHT},
            {"id": "only-beta", "input": "q", "assertions": RIGHT, "execution": {"targets": ["beta"]}},
        ],
    }
    path = scripted(tmp_path, suite, {"t@alpha": ["right"], "t@beta": ["wrong"]}, targets=("alpha", "beta"))
    rows = run(path, tmp_path / "base")
    assert {k: (r["target"], r["score"]) for k, r in rows.items()} == {
        "t@alpha": ("alpha", 1.0),
        "t@beta": ("beta", 0.0),
        "only-beta@beta": ("beta", 1.0),
    }
    (tmp_path / "scripts.json").write_text(json.dumps({"t@alpha": ["wrong"], "t@beta": ["right"]}))
    candidate = run(path, tmp_path / "cand")
    result = compare(list(rows.values()), list(candidate.values()))
    assert (result.summary.matched, result.summary.wins, result.summary.losses) == (3, 1, 1)
    narrowed = run(path, tmp_path / "narrowed", target="beta")
    assert sorted(narrowed) == ["only-beta", "t"]  # one chosen target: no matrix, plain ids


def test_import_run_overrides_apply_under_the_tests_own(tmp_path):
    scripted(
        tmp_path,
        {"name": "unused", "tests": [{"id": "x", "input": "q", "assertions": RIGHT}]},
        {"a": ["wrong", "right"], "b": ["wrong", "right"]},
    )
    (tmp_path / "child.eval.yaml").write_text(
        yaml.safe_dump(
            {
                "name": "child",
                "tests": [
                    {"id": "a", "input": "q", "assertions": RIGHT},
                    {"id": "b", "input": "q", "assertions": RIGHT, "run": {"repeat": 1, "threshold": 0.0}},
                ],
            }
        )
    )
    parent = tmp_path / "parent.eval.yaml"
    parent.write_text(
        yaml.safe_dump(
            {
                "name": "parent",
                "execution": {"target": "alpha"},
                "imports": {
                    "suites": [
                        {"path": "child.eval.yaml", "run": {"repeat": 2, "threshold": 1.0, "timeout_seconds": 300}}
                    ]
                },
            }
        )
    )
    rows = run(parent, tmp_path / "out")
    assert (rows["a"]["score"], calls(tmp_path, "a")) == (1.0, 2)  # the import's repeat: 2
    assert (rows["b"]["score"], rows["b"]["execution_status"], calls(tmp_path, "b")) == (0.0, "ok", 1)  # test.run wins
    notes = [str(n) for n in check(parent)[0].notes]
    assert not any("run.timeout_seconds" in n for n in notes)  # applied, as repeat and threshold are


def test_the_files_timeout_seconds_bounds_each_answer_unless_the_tests_run_says_otherwise(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "timeout_seconds": 1,
        "tests": [
            {"id": "slow", "input": "q", "assertions": RIGHT},
            {"id": "allowed", "input": "q", "assertions": RIGHT, "run": {"timeout_seconds": 30}},
        ],
    }
    rows = run(
        scripted(tmp_path, suite, {"slow": ["!slow 3"], "allowed": ["!slow 2"]}), tmp_path / "out", max_retries=0
    )
    assert rows["slow"]["error"] == "target alpha timed out after 1s"
    assert rows["allowed"]["execution_status"] == "ok"


def test_dependencies_run_in_waves_and_a_failed_dependency_skips_its_dependents(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "tests": [
            {"id": "later", "input": "q", "assertions": RIGHT, "depends_on": ["root"]},
            {"id": "root", "input": "q", "assertions": RIGHT},
        ],
    }
    rows = run(scripted(tmp_path, suite, {"root": ["!fail"]}), tmp_path / "out", max_retries=0)
    assert rows["later"]["error"] == "Skipped: dependency failed (root)"
    assert calls(tmp_path, "later") == 0


def test_extensions_are_checked_and_said_not_to_run(tmp_path):
    (tmp_path / "setup.mjs").write_text("export function beforeAll() {}\n")
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "extensions": ["file://setup.mjs:beforeAll"],
        "tests": [{"id": "t", "input": "q", "assertions": RIGHT}],
    }
    suite_, problems = check(scripted(tmp_path, suite, {}))
    assert problems == [] and any(n.field == "extensions" and "not run" in n.message for n in suite_.notes)


@pytest.mark.parametrize(
    "suite_fields, test_fields, field, message",
    [
        (
            {"execution": {"target": "alpha", "trials": {"count": -1}}},
            {},
            "execution.trials.count",
            "whole number >= 1",
        ),
        ({"execution": {"target": "alpha", "trials": "twice"}}, {}, "execution.trials", "must be a mapping"),
        (
            {"execution": {"target": "alpha", "trials": {"count": 2, "strategy": "best"}}},
            {},
            "execution.trials.strategy",
            "pass_at_k",
        ),
        ({"execution": {"targets": "alpha"}}, {}, "execution.targets", "list of target names"),
        ({"execution": {"targets": ["alpha", "ghost"]}}, {}, "execution.targets", "no target named 'ghost'"),
        ({"execution": {"target": "alpha", "budget_usd": -2}}, {}, "execution.budget_usd", "> 0"),
        ({"evaluate_options": {"repeat": {"count": 0}}}, {}, "evaluate_options.repeat.count", "whole number >= 1"),
        (
            {"evaluate_options": {"repeat": {"count": 2, "early_exit": "yes"}}},
            {},
            "evaluate_options.repeat.early_exit",
            "true or false",
        ),
        ({"evaluate_options": {"max_concurrency": 0}}, {}, "evaluate_options.max_concurrency", "1 to 50"),
        ({"evaluate_options": "fast"}, {}, "evaluate_options", "must be a mapping"),
        ({}, {"depends_on": "root"}, "depends_on", "list of test ids"),
        ({}, {"depends_on": ["t"]}, "depends_on", "cannot depend on itself"),
        ({}, {"depends_on": ["ghost"]}, "depends_on", "no test with id 'ghost'"),
        ({}, {"on_dependency_failure": "maybe"}, "on_dependency_failure", "skip, fail, run"),
        ({}, {"run": {"threshold": 2}}, "run.threshold", "[0, 1]"),
        ({}, {"run": {"timeout_seconds": 0}}, "run.timeout_seconds", "seconds > 0"),
        ({"timeout_seconds": "long"}, {}, "timeout_seconds", "seconds > 0"),
        ({"target": {"extends": "nobody"}}, {}, "target.extends", "no target named 'nobody' to extend"),
        (
            {"target": {"extends": "alpha", "timeout_seconds": "soon"}},
            {},
            "target.timeout_seconds",
            "number of seconds",
        ),
        ({"extensions": ["file://missing.mjs:beforeAll"]}, {}, "extensions[0]", "no such file"),
        ({"extensions": ["file://suite.eval.yaml:beforeLunch"]}, {}, "extensions[0]", "beforeAll"),
    ],
)
def test_hostile_run_controls_are_one_line_errors_naming_the_file_and_field(
    tmp_path, suite_fields, test_fields, field, message
):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        **suite_fields,
        "tests": [{"id": "t", "input": "q", "assertions": RIGHT, **test_fields}],
    }
    path = scripted(tmp_path, suite, {})
    done = cli(tmp_path, "eval", str(path), "--output", "out")
    assert_one_line_error(done, 30, f"field '{field}'", message, "suite.eval.yaml")
    assert not (tmp_path / "out").exists() and calls(tmp_path, "t") == 0


def test_a_dependency_cycle_is_one_error_naming_the_cycle(tmp_path):
    suite = {
        "name": "s",
        "execution": {"target": "alpha"},
        "tests": [
            {"id": "a", "input": "q", "assertions": RIGHT, "depends_on": ["c"]},
            {"id": "b", "input": "q", "assertions": RIGHT, "depends_on": ["a"]},
            {"id": "c", "input": "q", "assertions": RIGHT, "depends_on": ["b"]},
        ],
    }
    done = cli(tmp_path, "eval", str(scripted(tmp_path, suite, {})), "--output", "out")
    assert_one_line_error(done, 30, "field 'depends_on'", "circular dependency: a -> c -> b -> a")
    assert not (tmp_path / "out").exists()


MATRIX_AGENTV = """#!/usr/bin/env python3
import json, os, sys
out = sys.argv[sys.argv.index("--output") + 1]
os.makedirs(out, exist_ok=True)
rows = [{"test_id": "t", "target": target, "suite": "s", "score": score, "execution_status": "ok"} for target, score in (("a", 1.0), ("b", 0.0))]
open(os.path.join(out, "index.jsonl"), "w").write("".join(json.dumps(r) + "\\n" for r in rows))
"""


def test_eval_agentv_on_a_matrix_file_keys_its_rows_by_test_and_target(tmp_path, monkeypatch):
    from autoresearch.runs.evaluators.agentv import AgentVEvaluator

    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "agentv").write_text(MATRIX_AGENTV)
    (tmp_path / "bin" / "agentv").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "m.eval.yaml").write_text("tests: []\n")
    outcome = AgentVEvaluator(EvalConfig(agentv="m.eval.yaml"), tmp_path).run(tmp_path / "run")
    assert [(r["test_id"], r["score"]) for r in outcome.rows] == [("t@a", 1.0), ("t@b", 0.0)]
    assert [r["test_id"] for r in load_rows(tmp_path / "run")] == ["t@a", "t@b"]
