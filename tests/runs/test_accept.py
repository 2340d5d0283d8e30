"""What AgentV accepts, we accept: read as AgentV reads it, or ignored as it ignores it with a note `validate` prints.

The scores themselves are checked against the real AgentV in tests/runs/parity; these are the finer points.
"""

from __future__ import annotations

import json
import sys

from autoresearch.runs.evalfile.interpolate import render_vars
from autoresearch.runs.evaluators.builtin import prepare
from autoresearch.runs.parse import check, load
from tests.helpers.repos import cli
from tests.runs.evaltree import canned_command, write_tree

CONTAINS = [{"type": "contains", "value": "a"}]


def test_validate_prints_what_it_ignores_and_still_accepts_the_file(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "x", "conversation_id": "c1", "assertions": CONTAINS}],
        {},
        suite={"governance": {"risk_tier": "high"}, "tags": {"experiment": "e1"}},
    )
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 0, done.stdout
    notes = [line for line in done.stdout.splitlines() if line.startswith("note: ")]
    assert any("field 'governance': ignored" in n for n in notes)
    assert any("field 'tags': ignored" in n for n in notes)
    assert any("test 't': field 'conversation_id': ignored" in n for n in notes)


def test_a_target_with_another_provider_refuses_only_the_tests_that_use_it(tmp_path):
    targets = [
        {"name": "canned", "provider": "cli", "command": canned_command()},
        {"name": "agent", "provider": "claude-code"},
    ]
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": CONTAINS}], {}, targets=targets)
    assert prepare(eval_file, tmp_path).suite.cases[0].id == "t"
    eval_file.write_text(eval_file.read_text().replace("target: canned", "target: agent"))
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 30 and "targets[agent].provider" in done.stdout


def test_an_input_file_is_found_in_a_directory_above_the_eval_file_as_agentv_finds_it(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "guide.md").write_text("the guide")
    eval_file = write_tree(
        tmp_path,
        [
            {
                "id": "t",
                "input": [{"role": "user", "content": [{"type": "file", "value": "shared/guide.md"}]}],
                "assertions": CONTAINS,
            }
        ],
        {},
    )
    (tmp_path / ".git").mkdir()
    suite = load(eval_file)
    assert suite.cases[0].messages[0].parts[0].file == (tmp_path / "shared" / "guide.md").resolve()


def test_a_missing_input_file_is_left_out_with_a_note(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [
            {
                "id": "t",
                "input": [{"role": "user", "content": [{"type": "file", "value": "gone.md"}, "text"]}],
                "assertions": CONTAINS,
            }
        ],
        {},
    )
    suite = load(eval_file)
    assert [p.text for p in suite.cases[0].messages[0].parts] == ["text"]
    assert any(n.field.endswith(".value") and "left out" in n.message for n in suite.notes)


def test_evals_json_is_read_as_agentv_reads_it(tmp_path):
    path = tmp_path / "evals.json"
    path.write_text(
        json.dumps(
            {
                "skill_name": "s",
                "evals": [
                    {
                        "id": 1,
                        "prompt": "p1",
                        "expected_output": "x",
                        "expectations": ["ignored"],
                        "should_trigger": True,
                        "files": ["nope.csv"],
                    },
                    {"id": 2, "prompt": ""},
                    {"id": 3, "prompt": "p3"},
                ],
            }
        )
    )
    suite = load(path)
    assert [c.id for c in suite.cases] == ["1", "3"]  # an eval without a prompt is skipped
    assert [(g.type, g.name) for g in suite.cases[0].graders] == [
        ("llm-grader", "llm-grader")
    ]  # expectations are not assertions
    assert suite.cases[0].criteria == "x" and suite.cases[0].files == []
    assert {n.field for n in suite.notes} >= {"should_trigger", "expectations", "files[0]", "prompt"}


def test_rubric_criteria_are_checks_named_as_agentv_names_them(tmp_path):
    grader = {"type": "rubrics", "criteria": ["Polite", {"id": "short", "criteria": "Short", "required": False}]}
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": [grader]}], {})
    options = load(eval_file).cases[0].graders[0].options
    assert [(r["id"], r["outcome"], r.get("required")) for r in options["rubrics"]] == [
        ("rubric-1", "Polite", None),
        ("short", "Short", False),
    ]


def test_min_score_is_the_bar_of_a_required_grader(tmp_path):
    graders = [
        {"type": "contains", "value": "a", "required": True, "min_score": 0.5},
        {"type": "contains", "value": "b", "min_score": 0.5},
    ]
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": graders}], {})
    assert [g.required for g in load(eval_file).cases[0].graders] == [0.5, None]


def test_vars_render_whole_values_and_leave_unknown_names(tmp_path):
    variables = {"items": ["a", "b"], "who": {"name": "Ada"}, "n": 3}
    assert render_vars("{{ items }}", variables) == ["a", "b"]
    assert (
        render_vars("{{who.name}} has {{ n }} {{ items }} {{ other }}", variables) == 'Ada has 3 ["a","b"] {{ other }}'
    )


def test_imports_bring_whole_suites_filtered_by_select_and_raw_rows(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "own", "input": "x", "assertions": CONTAINS}],
        {},
        suite={
            "imports": {
                "suites": [{"path": "child*.eval.yaml", "select": {"test_ids": ["keep-*"], "tags": ["smoke"]}}],
                "tests": [{"path": "rows.jsonl"}],
            }
        },
    )
    child = {
        "tags": ["smoke"],
        "input": "shared",
        "assertions": CONTAINS,
        "tests": [
            # each with criteria of its own: AgentV skips a test whose only assertions are its suite's
            {"id": "keep-1", "input": "a", "criteria": "says a"},
            {"id": "drop-1", "input": "b", "criteria": "says b"},
            {"id": "keep-2", "input": "c", "criteria": "says c", "metadata": {"tags": ["slow"]}},
        ],
    }
    (eval_file.parent / "child.eval.yaml").write_text(json.dumps(child))
    (eval_file.parent / "rows.jsonl").write_text(json.dumps({"id": "row", "input": "r", "assertions": CONTAINS}) + "\n")
    suite = load(eval_file)
    assert [c.id for c in suite.cases] == ["own", "row", "keep-1", "keep-2"]
    keep = suite.cases[2]
    assert [m.render() for m in keep.messages] == ["shared", "a"] and len(keep.graders) == 1  # the child's own contract


def test_a_circular_import_is_refused_naming_the_chain(tmp_path):
    eval_file = write_tree(tmp_path, [], {}, suite={"imports": {"suites": [{"path": "suite.eval.yaml"}]}})
    found = [str(p) for p in check(eval_file)[1]]
    assert any("circular import" in p and "suite.eval.yaml -> " in p for p in found)


def test_compare_reads_camel_case_rows_as_agentv_compare_does(tmp_path):
    (tmp_path / "base.jsonl").write_text('{"testId": "a", "score": 0.5}\n{"testId": "b", "score": 1}\n')
    (tmp_path / "cand.jsonl").write_text('{"testId": "a", "score": 1}\n{"test_id": "b", "score": 0.5}\n')
    done = cli(tmp_path, "compare", "base.jsonl", "cand.jsonl", "--json")
    summary = json.loads(done.stdout)["summary"]
    assert (summary["matched"], summary["wins"], summary["losses"], summary["mean_delta"]) == (
        2,
        1,
        1,
        0,
    )  # agentv compare 4.42.4's figures


def test_assertions_agentv_skips_are_skipped_with_a_note(tmp_path):
    graders = [{"type": "llm-judge", "prompt": "old"}, {"value": "no type"}, {"type": "contains", "value": "a"}]
    suite = load(write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": graders}], {}))
    assert [g.type for g in suite.cases[0].graders] == ["contains"]
    assert [n.field for n in suite.notes if n.message.startswith("skipped")] == ["assertions[0]", "assertions[1]"]


def test_an_llm_grader_prompt_script_is_read_as_agentv_reads_it(tmp_path):
    script = {"command": [sys.executable, "prompt.py"]}
    eval_file = write_tree(
        tmp_path, [{"id": "t", "input": "x", "assertions": [{"type": "llm-grader", "prompt": script}]}], {}
    )
    (eval_file.parent / "prompt.py").write_text("print('Is the answer polite?')\n")
    suite, problems = check(eval_file)
    assert [g.options.get("prompt") for g in suite.cases[0].graders] == [script]
    assert not [p for p in problems if p.field.startswith("assertions[0]")]


def test_flat_target_and_threshold_of_the_experiments_page_are_read(tmp_path):
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": CONTAINS}], {})
    eval_file.write_text(
        eval_file.read_text().replace(
            "execution:\n  target: canned\n", "target: {extends: canned, model: gpt-5}\nthreshold: 0.5\n"
        )
    )
    prepared = prepare(eval_file, tmp_path)
    assert (prepared.suite.target, prepared.suite.threshold) == ("canned", 0.5)
    assert not any(
        n.field == "target" for n in prepared.suite.notes
    )  # the override is applied now (tests/runs/test_experiments.py)


def test_eval_says_what_it_ignores_before_the_scores(tmp_path):
    eval_file = write_tree(
        tmp_path, [{"id": "t", "input": "x", "conversation_id": "c1", "assertions": CONTAINS}], {"t": "a"}
    )
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("note: ") and "field 'conversation_id': ignored" in done.stdout.splitlines()[0]
