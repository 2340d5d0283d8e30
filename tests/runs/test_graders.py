"""Every deterministic grader type, and the common fields, run end to end through a CLI target."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from autoresearch.plumbing.redact import MASK
from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import RunOptions
from tests.helpers.fake_llm import FakeLLM, text_reply
from tests.runs.evaltree import canned_command, write_tree


def run(tmp_path: Path, tests: list[dict], answers: dict, **suite) -> dict[str, dict]:
    eval_file = write_tree(tmp_path, tests, answers, suite or None)
    execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(workers=4), show_progress=False)
    return {row["test_id"]: row for row in load_rows(tmp_path / "out")}


def scores(row: dict) -> list[float]:
    return [s["score"] for s in row["scores"]]


def test_field_accuracy_weights_matching_fields(tmp_path):
    expected = {"name": "Ada", "year": 1843, "born": "1815-12-10", "lang": "en"}
    fields = [
        {"path": "name"},
        {"path": "year", "match": "numeric_tolerance", "tolerance": 1},
        {"path": "born", "match": "date"},
        {"path": "lang", "weight": 2},
    ]
    rows = run(
        tmp_path,
        [
            {
                "id": "f",
                "input": "x",
                "expected_output": expected,
                "assertions": [{"type": "field-accuracy", "fields": fields}],
            }
        ],
        {"f": {"name": "Ada", "year": 1844, "born": "12/10/1815", "lang": "fr"}},
    )
    assert rows["f"]["score"] == 3 / 5
    assert [a["passed"] for a in rows["f"]["assertions"]] == [True, True, True, False]


def test_metric_graders_read_the_cli_envelope(tmp_path):
    envelope = {"text": "done", "token_usage": {"input": 100, "output": 50}, "cost_usd": 0.02}
    rows = run(
        tmp_path,
        [
            {
                "id": "m",
                "input": "x",
                "assertions": [
                    {"type": "token-usage", "max_total": 200, "max_output": 10},
                    {"type": "cost", "budget": 0.05},
                    {"type": "latency", "threshold": 60000},
                    {"type": "execution-metrics", "max_tokens": 150, "max_cost_usd": 0.01},
                    {"type": "execution-metrics", "max_tool_calls": 3},
                    {"type": "equals", "value": "done"},
                ],
            }
        ],
        {"m": envelope},
    )
    # a target that reports no tool calls made none: AgentV 4.42.4 passes `max_tool_calls` (0 <= 3)
    assert scores(rows["m"]) == [0.0, 1.0, 1.0, 0.5, 1.0, 1.0]
    assert rows["m"]["token_usage"] == {"input": 100, "output": 50}
    assert rows["m"]["cost_usd"] == 0.02


def test_code_grader_reads_stdin_json_and_prints_a_score(tmp_path):
    grader = tmp_path / "evals" / "grade.py"
    grader.parent.mkdir(parents=True)
    grader.write_text(
        "import json, sys\n"
        "t = json.load(sys.stdin)\n"
        "ok = str(t['output'].count('x')) == t['expected_output'][-1]['content']\n"
        "print(json.dumps({'score': 0.25 if ok else 0.0, 'assertions': [{'text': 'count', 'passed': ok}]}))\n"
    )
    rows = run(
        tmp_path,
        [
            {
                "id": "c",
                "input": "x",
                "expected_output": "3",
                "assertions": [{"type": "code-grader", "command": [sys.executable, "grade.py"]}],
            }
        ],
        {"c": "xxx"},
    )
    assert rows["c"]["score"] == 0.25
    assert rows["c"]["assertions"] == [{"text": "count", "passed": True}]


def test_a_code_grader_is_read_as_agentv_reads_it(tmp_path):
    """The whole stdout is the JSON (indented is fine); plain text is graded by the exit code; a crash is a 0, not an error."""
    indented = f"{sys.executable} -c \"import json; print(json.dumps({{'score': 0.5}}, indent=2))\""
    crash = f"{sys.executable} -c \"import sys; sys.stderr.write('boom'); sys.exit(2)\""
    graders = {"indented": indented, "plain-ok": "echo looks fine", "plain-fail": "echo nope; exit 1", "crash": crash}
    rows = run(
        tmp_path,
        [{"id": i, "input": "x", "assertions": [{"type": "code-grader", "command": c}]} for i, c in graders.items()],
        {},
    )
    assert {i: (r["score"], r["execution_status"]) for i, r in rows.items()} == {
        "indented": (0.5, "quality_failure"),
        "plain-ok": (1.0, "ok"),
        "plain-fail": (0.0, "quality_failure"),
        "crash": (0.0, "quality_failure"),
    }
    assert rows["plain-ok"]["assertions"] == [{"text": "looks fine", "passed": True}]
    assert rows["crash"]["assertions"][0]["text"] == "Code evaluator failed: Code evaluator exited with code 2: boom"


def test_negate_weight_and_required(tmp_path):
    rows = run(
        tmp_path,
        [
            {
                "id": "neg",
                "input": "x",
                "assertions": [
                    {"type": "contains", "value": "no", "negate": True},
                    {"type": "contains", "value": "yes", "weight": 3},
                ],
            },
            {
                "id": "req",
                "input": "x",
                "assertions": [
                    {"type": "contains", "value": "yes", "weight": 9},
                    {"type": "contains", "value": "absent", "required": True},
                ],
            },
            {
                "id": "req-min",
                "input": "x",
                "assertions": [
                    {"type": "contains", "value": "yes"},
                    {
                        "type": "composite",
                        "required": 0.5,
                        "aggregator": {"type": "weighted_average"},
                        "assertions": [
                            {"name": "yes", "type": "contains", "value": "yes"},
                            {"name": "absent", "type": "contains", "value": "absent"},
                        ],
                    },
                ],
            },
        ],
        {"neg": "yes", "req": "yes", "req-min": "yes"},
    )
    assert rows["neg"]["score"] == 1.0 and rows["neg"]["scores"][0]["verdict"] == "pass"
    assert rows["req"]["score"] == 0.0 and rows["req"]["execution_status"] == "quality_failure"
    assert rows["req-min"]["score"] == 0.75


def test_composite_threshold_aggregator_and_suite_assertions(tmp_path):
    rows = run(
        tmp_path,
        [
            {
                "id": "comp",
                "input": "x",
                "assertions": [
                    {
                        "type": "composite",
                        "aggregator": {"type": "threshold", "threshold": 0.6},
                        "assertions": [{"name": n, "type": "contains", "value": n} for n in ("a", "b", "z")],
                    }
                ],
            }
        ],
        {"comp": "a b"},
        assertions=[{"type": "is-json", "name": "must-be-json"}],
    )
    assert [(s["name"], s["score"], s["verdict"]) for s in rows["comp"]["scores"]] == [
        ("composite", 2 / 3, "pass"),
        ("must-be-json", 0.0, "fail"),
    ]


def test_regex_follows_javascript(tmp_path):
    rows = run(
        tmp_path,
        [
            {
                "id": "r",
                "input": "x",
                "assertions": [
                    {"type": "regex", "value": "done$"},
                    {"type": "regex", "value": "done$", "flags": "m"},
                    {"type": "regex", "value": "^second", "flags": "m"},
                    {"type": "regex", "value": "(?<word>sec)ond"},
                    {"type": "regex", "value": "\\d"},
                ],
            }
        ],
        {"r": "first done\nsecond ٣\n"},
    )
    assert scores(rows["r"]) == [0.0, 1.0, 1.0, 1.0, 0.0]


def test_run_directory_has_agentv_artifacts(tmp_path, monkeypatch):
    # a `/` in an id fails a cli target (as in AgentV 4.42.4) unless $TMPDIR/agentv-<prefix> exists
    (tmp_path / "tmp" / "agentv-a").mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    run(tmp_path, [{"id": "a/b", "input": "hi", "assertions": [{"type": "contains", "value": "h"}]}], {"a/b": "hello"})
    out = tmp_path / "out"
    row = load_rows(out)[0]
    grading = json.loads((out / row["grading_path"]).read_text())
    assert row["grading_path"] == "a_b/grading.json"
    assert grading["summary"] == {"passed": 1, "failed": 0, "total": 1, "pass_rate": 1.0}
    assert json.loads((out / "a_b" / "timing.json").read_text())["token_usage"] == {
        "input": 0,
        "output": 0,
        "reasoning": 0,
    }
    bench = json.loads((out / "benchmark.json").read_text())
    assert bench["metadata"]["tests_run"] == ["a/b"] and bench["run_summary"]["canned"]["pass_rate"]["mean"] == 1.0
    assert (out / "a_b" / "outputs" / "response.md").read_text() == "@[assistant]:\nhello"
    assert json.loads((out / "timing.json").read_text())["duration_ms"] == row["duration_ms"]


def test_code_grader_payload_carries_the_test_metadata(tmp_path):
    grader = tmp_path / "evals" / "grade.py"
    grader.parent.mkdir(parents=True)
    grader.write_text(
        "import json, sys\nt = json.load(sys.stdin)\nprint(json.dumps({'score': 1 if t['metadata'] == {'lang': 'fr', 'level': 2} else 0}))\n"
    )
    rows = run(
        tmp_path,
        [
            {
                "id": "c",
                "input": "x",
                "metadata": {"lang": "fr", "level": 2},
                "assertions": [{"type": "code-grader", "command": [sys.executable, "grade.py"]}],
            }
        ],
        {"c": "y"},
    )
    assert rows["c"]["score"] == 1.0


CRASHING_GRADER = """\
import os, sys
for i in range(30):
    print(f"trace line {i}", file=sys.stderr)
print("KeyError: the key is " + os.environ["GRADER_SERVICE_API_KEY"], file=sys.stderr)
sys.exit(2)
"""

SDK_LIKE_GRADER = """\
import json
print(json.dumps({"score": 0, "assertions": [{"text": "Evaluation failed: criteria: Required", "passed": False}]}))
raise SystemExit(1)
"""


def test_a_failing_code_grader_shows_its_last_lines_masked_as_evidence_and_in_the_log(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("GRADER_SERVICE_API_KEY", "sk-grader-0123456789")
    (tmp_path / "evals").mkdir(parents=True)
    (tmp_path / "evals" / "crash.py").write_text(CRASHING_GRADER)
    (tmp_path / "evals" / "sdk.py").write_text(SDK_LIKE_GRADER)
    graders = {"crash": "crash.py", "sdk": "sdk.py"}
    tests = [
        {
            "id": i,
            "input": "x",
            "assertions": [{"name": f"{i}-check", "type": "code-grader", "command": [sys.executable, g]}],
        }
        for i, g in graders.items()
    ]
    rows = run(tmp_path, tests, {"crash": "y", "sdk": "y"})

    crash = rows["crash"]["assertions"][0]
    assert crash["text"].startswith("Code evaluator failed: Code evaluator exited with code 2: trace line 0")
    assert crash["evidence"].splitlines() == [f"trace line {i}" for i in range(11, 30)] + [
        f"KeyError: the key is {MASK}"
    ]
    assert "sk-grader-0123456789" not in json.dumps(rows["crash"])
    sdk = rows["sdk"]["assertions"][0]  # nothing on stderr: AgentV's SDK says why on stdout
    assert sdk["text"] == "Code evaluator failed: Code evaluator exited with code 1"
    assert "Evaluation failed: criteria: Required" in sdk["evidence"]
    logged = [r.getMessage() for r in caplog.records if r.name == "autoresearch.runs"]
    assert any("crash-check" in m and "of test crash" in m and "trace line 29" in m for m in logged), logged
    assert any("sdk-check" in m and "criteria: Required" in m for m in logged), logged


def fraction(hits: int, of: int = 5) -> dict:
    """A composite scoring hits/of: `hits` members match the answer 'yes', the rest never do."""
    members = [{"name": f"m{i}", "type": "contains", "value": "yes" if i < hits else "never"} for i in range(of)]
    return {"type": "composite", "aggregator": {"type": "weighted_average"}, "assertions": members}


def test_a_composite_without_aggregator_or_named_members_is_ignored_as_agentv_ignores_it(tmp_path):
    unnamed = {
        "type": "composite",
        "aggregator": {"type": "weighted_average"},
        "assertions": [{"type": "contains", "value": "never"}],
    }
    no_aggregator = {"type": "composite", "assertions": [{"name": "m", "type": "contains", "value": "never"}]}
    rows = run(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "yes"}, unnamed, no_aggregator]}],
        {"t": "yes"},
    )
    assert [(s["name"], s["score"]) for s in rows["t"]["scores"]] == [("contains-yes", 1.0)]


def test_a_graders_own_threshold_sets_its_verdict(tmp_path):
    rows = run(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [fraction(1, of=2), {**fraction(1, of=2), "threshold": 0.5}]}],
        {"t": "yes"},
    )
    assert [(s["score"], s["verdict"]) for s in rows["t"]["scores"]] == [(0.5, "fail"), (0.5, "pass")]


def test_required_true_means_a_minimum_of_0_8(tmp_path):
    tests = [
        {
            "id": "at-0.6",
            "input": "x",
            "assertions": [{"type": "contains", "value": "yes"}, {**fraction(3), "required": True}],
        },
        {
            "id": "at-0.8",
            "input": "x",
            "assertions": [{"type": "contains", "value": "yes"}, {**fraction(4), "required": True}],
        },
        {
            "id": "min-0.5",
            "input": "x",
            "assertions": [{"type": "contains", "value": "yes"}, {**fraction(3), "required": 0.5}],
        },
    ]
    rows = run(tmp_path, tests, {"at-0.6": "yes", "at-0.8": "yes", "min-0.5": "yes"})
    assert rows["at-0.6"]["score"] == 0.0
    assert rows["at-0.8"]["score"] == 0.9
    assert rows["min-0.5"]["score"] == 0.8


def test_llm_grader_prompt_from_a_file_is_read_when_the_test_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_MODEL", "fake-model")
    with FakeLLM() as llm:
        llm.handler = lambda req: text_reply(json.dumps({"score": 1, "assertions": []}))
        judge = {
            "name": "judge",
            "provider": "openai",
            "model": "${{ FAKE_MODEL }}",
            "base_url": llm.base_url("openai"),
        }
        targets = [{"name": "canned", "provider": "cli", "command": canned_command(), "grader_target": "judge"}, judge]
        tests = [
            {
                "id": "g",
                "input": "Q",
                "criteria": "C",
                "assertions": [{"type": "llm-grader", "prompt": "file://graders/judge.md"}],
            }
        ]
        eval_file = write_tree(tmp_path, tests, {"g": "A"}, targets=targets)
        (eval_file.parent / "graders").mkdir()
        (eval_file.parent / "graders" / "judge.md").write_text("old template {{output}}")
        prepared = prepare(eval_file, tmp_path)
        (eval_file.parent / "graders" / "judge.md").write_text("Judge {{output}} for {{input}} by {{criteria}}")
        execute(prepared, tmp_path / "out", RunOptions(), show_progress=False)
    assert load_rows(tmp_path / "out")[0]["score"] == 1.0
    assert "Judge A for Q by C" in json.dumps(llm.requests[0].body)


def test_regex_patterns_python_refused_run_as_javascript(tmp_path):
    assertions = [
        {"type": "regex", "value": "^\\p{Lu}", "flags": "u"},
        {"type": "regex", "value": "Élan[^]second"},
        {"type": "regex", "value": "(?<w>on)d\\k<w>"},
        {"type": "regex", "value": "second", "flags": "y"},
    ]
    rows = run(tmp_path, [{"id": "r", "input": "x", "assertions": assertions}], {"r": "Élan\nsecond ondon"})
    assert scores(rows["r"]) == [1.0, 1.0, 1.0, 0.0]
