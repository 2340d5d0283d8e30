"""Eval files and targets: what is read, what is refused by name, and `autoresearch validate`."""

from __future__ import annotations

import json

import pytest
import yaml

from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.parse import EvalFileError, load
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import RunOptions
from tests.helpers.repos import cli
from tests.runs.evaltree import write_tree


def problems_of(tmp_path, tests, suite=None, targets=None) -> list[str]:
    eval_file = write_tree(tmp_path, tests, {}, suite, targets)
    with pytest.raises(EvalFileError) as caught:
        prepare(eval_file, tmp_path)
    return [f"{p.test_id}|{p.field}|{p.message}" for p in caught.value.problems]


def notes_of(tmp_path, tests, suite=None) -> list[str]:
    """The notes of an eval file that loads: what is accepted and ignored, as AgentV ignores it."""
    suite_ = prepare(write_tree(tmp_path, tests, {}, suite), tmp_path).suite
    return [f"{p.test_id}|{p.field}|{p.message}" for p in suite_.notes]


def test_unsupported_fields_are_refused_by_name(tmp_path):
    found = problems_of(
        tmp_path,
        [{"id": "t1", "input": "x", "repos": [{"path": "w"}], "assertions": [{"type": "agent-judge"}]}],
        suite={"hooks": {"before_all": "x"}},
    )
    assert any(p.startswith("None|hooks|unsupported") for p in found)
    assert any(p.startswith("t1|repos|unsupported") for p in found)  # a test's repos belong in its `workspace:`
    assert any(p.startswith("t1|assertions[0].type|grader type 'agent-judge' is unsupported") for p in found)


def test_unknown_fields_are_ignored_with_a_note_as_agentv_ignores_them(tmp_path):
    """`agentv validate` warns "Unknown field 'x'. This field will be ignored." and runs the file: so do we, saying so."""
    found = notes_of(
        tmp_path,
        [{"id": "t2", "input": "x", "expected": "typo", "assertions": [{"type": "contains", "value": "a", "valu": 1}]}],
    )
    assert any(p.startswith("t2|expected|unknown field, ignored") for p in found)
    assert any(p.startswith("t2|assertions[0].valu|AgentV hands it to the grader as config") for p in found)


def test_literal_api_key_and_model_are_refused(tmp_path):
    targets = [{"name": "canned", "provider": "openai", "model": "gpt-4o", "api_key": "sk-live-123"}]
    found = problems_of(tmp_path, [{"id": "t", "input": "x", "criteria": "good"}], targets=targets)
    assert any(p.startswith("None|targets[canned].api_key|must be an environment reference") for p in found)
    assert any(p.startswith("None|targets[canned].model|must be an environment reference") for p in found)


def test_variables_interpolate_from_env_and_dotenv(tmp_path, monkeypatch):
    monkeypatch.setenv("GREETING", "hello")
    (tmp_path / ".env").write_text("WHO=world\n")
    monkeypatch.delenv("WHO", raising=False)
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "equals", "value": "${{ GREETING }} ${{WHO}}"}]}],
        {"t": "hello world"},
    )
    execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(), show_progress=False)
    assert load_rows(tmp_path / "out")[0]["score"] == 1.0


def test_tests_from_a_jsonl_file_and_suite_input_prepended(tmp_path):
    eval_file = write_tree(tmp_path, [], {"a": "ok"}, suite={"input": "system says"})
    (eval_file.parent / "cases.jsonl").write_text(
        json.dumps({"id": "a", "input": "question", "assertions": [{"type": "equals", "value": "ok"}]}) + "\n"
    )
    body = yaml.safe_load(eval_file.read_text())
    body["tests"] = "cases.jsonl"
    eval_file.write_text(yaml.safe_dump(body))
    suite = load(eval_file)
    assert suite.cases[0].prompt_text() == "system says\n\nquestion"


def test_input_files_are_read_when_the_test_runs(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [
            {
                "id": "t",
                "input": [{"role": "user", "content": [{"type": "file", "value": "p.md"}]}],
                "criteria": "c",
                "assertions": [{"type": "contains", "value": "a"}],
            }
        ],
        {},
    )
    (eval_file.parent / "p.md").write_text("before")
    suite = load(eval_file)
    (eval_file.parent / "p.md").write_text("after")
    assert suite.cases[0].prompt_text() == "after"


def test_evals_json_strings_become_llm_graded_and_files_resolve(tmp_path):
    (tmp_path / "doc.txt").write_text("d")
    path = tmp_path / "evals.json"
    path.write_text(
        json.dumps(
            {
                "skill_name": "s",
                "evals": [
                    {
                        "id": 1,
                        "prompt": "p",
                        "expected_output": "e",
                        "files": ["doc.txt"],
                        "assertions": ["says hi", "is short"],
                    }
                ],
            }
        )
    )
    case = load(path).cases[0]
    assert (case.id, case.prompt_text(), case.expected_output) == ("1", "p", "e")
    assert [(g.type, g.name, g.options) for g in case.graders] == [
        ("llm-grader", "assertion-1", {"prompt": "says hi"}),
        ("llm-grader", "assertion-2", {"prompt": "is short"}),
    ]
    assert case.input_files() == [tmp_path / "doc.txt"]


def test_validate_lists_every_problem_with_file_test_and_field(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [
            {"id": "a", "input": "x", "assertions": [{"type": "regex", "value": "("}]},
            {"id": "b", "input": "x", "execution": {"target": "missing"}, "assertions": [{"type": "nope"}]},
        ],
        {},
    )
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 30
    assert f"{eval_file}: test 'a': field 'assertions[0]': Value error, invalid regex" in done.stdout
    assert f"{eval_file}: test 'b': field 'assertions[0].type': unknown grader type 'nope'" in done.stdout
    assert (
        f"{eval_file}: test 'b': field 'execution.target': no target named 'missing' (defined: canned)" in done.stdout
    )
    assert "3 problem(s)" in done.stdout
    ok = write_tree(
        tmp_path / "ok", [{"id": "a", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}], {}
    )
    assert cli(tmp_path, "validate", str(ok)).returncode == 0


def test_eval_path_prints_a_table_and_honours_threshold(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [
            {"id": "a", "input": "x", "assertions": [{"type": "contains", "value": "yes"}]},
            {"id": "b", "input": "x", "assertions": [{"type": "contains", "value": "yes"}]},
        ],
        {"a": "yes", "b": "no"},
    )
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out", "--threshold", "0.6")
    assert done.returncode == 1, done.stderr
    assert "a      1.000  ok" in done.stdout and "b      0.000  quality_failure" in done.stdout
    assert len(load_rows(tmp_path / "out")) == 2
    assert cli(tmp_path, "eval", str(eval_file), "--output", "out2", "--threshold", "0.5").returncode == 0


def test_a_missing_file_in_a_tests_files_is_named(tmp_path):
    found = problems_of(
        tmp_path, [{"id": "t", "input": "x", "files": ["gone.md"], "assertions": [{"type": "contains", "value": "a"}]}]
    )
    assert len(found) == 1 and found[0].startswith("t|files[0]|no such file gone.md")


def test_suite_name_and_description_are_read(tmp_path):
    eval_file = write_tree(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}],
        {},
        suite={"name": "greeter", "description": "Greets customers."},
    )
    suite = load(eval_file)
    assert (suite.name, suite.description) == ("greeter", "Greets customers.")


@pytest.mark.parametrize("threshold, status", [(None, "quality_failure"), (0.5, "quality_failure")])
def test_rows_are_judged_at_0_8_whatever_the_execution_threshold_as_agentv_judges_them(tmp_path, threshold, status):
    """AgentV 4.42.4 uses `execution.threshold` for its summary only (tests/runs/compat/rubrics-composite/threshold.eval.yaml)."""
    half = [{"type": "contains", "value": "a"}, {"type": "contains", "value": "z"}]
    execution = {"target": "canned"} if threshold is None else {"target": "canned", "threshold": threshold}
    eval_file = write_tree(
        tmp_path, [{"id": "t", "input": "x", "assertions": half}], {"t": "a"}, suite={"execution": execution}
    )
    execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(), show_progress=False)
    row = load_rows(tmp_path / "out")[0]
    assert (row["score"], row["execution_status"]) == (0.5, status)


def test_execution_threshold_out_of_range_is_named(tmp_path):
    found = problems_of(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}],
        suite={"execution": {"target": "canned", "threshold": 1.5}},
    )
    assert found == ["None|execution.threshold|must be a score in [0, 1]"]


def test_tests_from_a_yaml_file(tmp_path):
    eval_file = write_tree(tmp_path, [], {})
    cases = {"tests": [{"id": "y", "input": "from yaml", "assertions": [{"type": "contains", "value": "a"}]}]}
    (eval_file.parent / "cases.yaml").write_text(yaml.safe_dump(cases))
    body = yaml.safe_load(eval_file.read_text())
    eval_file.write_text(yaml.safe_dump({**body, "tests": "cases.yaml"}))
    assert [(c.id, c.prompt_text()) for c in load(eval_file).cases] == [("y", "from yaml")]


def test_message_content_as_plain_text_and_as_text_parts(tmp_path):
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "value": "first"}, {"type": "text", "value": "second"}]},
    ]
    eval_file = write_tree(
        tmp_path, [{"id": "t", "input": messages, "assertions": [{"type": "contains", "value": "a"}]}], {}
    )
    case = load(eval_file).cases[0]
    assert case.render_messages() == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "first\nsecond"},
    ]


def test_unsupported_repos_and_unknown_test_execution_keys_are_named(tmp_path):
    found = problems_of(
        tmp_path,
        [
            {
                "id": "t",
                "input": "x",
                "repos": [{"url": "u"}],
                "execution": {"target": "canned", "workers": 2},
                "assertions": [{"type": "contains", "value": "a"}],
            }
        ],
        suite={"repos": [{"url": "u"}]},
    )
    assert any(p.startswith("None|repos|unsupported by the built-in runner (repositories)") for p in found)
    assert any(p.startswith("t|repos|unsupported by the built-in runner (repositories)") for p in found)
    assert not any("execution.workers" in p for p in found)  # ignored, with a note, as AgentV ignores it


MALFORMED = {
    "suite target": ({"execution": {"target": ["a"]}}, {}, "None|execution.target|must be a string, not ['a']"),
    "test target": ({}, {"execution": {"target": ["a"]}}, "t|execution.target|must be a string, not ['a']"),
    "test execution": ({}, {"execution": "fast"}, "t|execution|must be a mapping, not 'fast'"),
    "metadata": ({}, {"metadata": "x"}, "t|metadata|must be a mapping, not 'x'"),
    "criteria": ({}, {"criteria": ["a"]}, "t|criteria|must be a string, not ['a']"),
    "role": (
        {},
        {"input": [{"role": ["user"], "content": "x"}]},
        "t|input[0].role|unsupported role ['user'] (tool messages are multi-turn tool trajectories)",
    ),
    "files": ({}, {"files": "a.md"}, "t|files|must be a list of paths"),
}


@pytest.mark.parametrize("suite, test, problem", MALFORMED.values(), ids=list(MALFORMED))
def test_a_value_of_the_wrong_kind_is_a_named_problem(tmp_path, suite, test, problem):
    found = problems_of(
        tmp_path,
        [{"id": "t", "input": "x", "assertions": [{"type": "contains", "value": "a"}], **test}],
        suite={"execution": {"target": "canned"}, **suite},
    )
    assert found == [problem]


@pytest.mark.parametrize(
    ("file_name", "suite_name"),
    [("csv.EVAL.yaml", "csv"), ("a.eval.yml", "a"), ("plain.YAML", "plain"), (".eval.yaml", "eval")],
)
def test_a_suite_without_a_name_is_named_after_its_file_as_agentv_names_it(tmp_path, file_name, suite_name):
    eval_file = tmp_path / file_name
    eval_file.write_text(yaml.safe_dump({"tests": [{"id": "t", "input": "x", "criteria": "y"}]}))
    assert load(eval_file).name == suite_name


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_jsonl_test_whose_text_holds_a_unicode_line_separator_is_one_test(tmp_path, separator):
    """JSON leaves U+2028, U+2029 and U+0085 raw in a string: the test that holds one is not cut in two."""
    eval_file = write_tree(tmp_path, [], {"a": "ok", "b": "ok"})
    cases = [{"id": i, "input": f"one{separator}two", "assertions": [{"type": "equals", "value": "ok"}]} for i in "ab"]
    text = "\r\n".join(json.dumps(case, ensure_ascii=False) for case in cases)
    (eval_file.parent / "cases.jsonl").write_text(text, newline="")
    body = yaml.safe_load(eval_file.read_text())
    body["tests"] = "cases.jsonl"
    eval_file.write_text(yaml.safe_dump(body))
    suite = load(eval_file)
    assert [case.prompt_text() for case in suite.cases] == [f"one{separator}two"] * 2
