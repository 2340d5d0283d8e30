"""A command mutator's spend: what it reports (a cost file at $AUTORESEARCH_COST_FILE, a coding agent's JSON
result) is its line's mutation_cost_usd and counts against stop.budget_usd; a malformed report is one
warning line, and a mutator that reports nothing is said once per run not to be counted."""

from __future__ import annotations

import json

import pytest

from autoresearch.mutators import spend
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores, state

ARTIFACT = "prompts/p.md"


def reporting(cost_file: str | None, **step) -> dict:
    """A plan step that edits the artifact and writes `cost_file` (its text) to $AUTORESEARCH_COST_FILE."""
    run = [f"printf '%s' '{cost_file}' > \"$AUTORESEARCH_COST_FILE\""] if cost_file is not None else []
    return {"run": run, **step}


def test_a_cost_file_is_the_mutations_spend_and_stops_the_budget_in_the_sandbox(tmp_path):
    report = json.dumps({"cost_usd": 0.75, "tokens_in": 1200, "tokens_out": 300})
    plan = {
        2: reporting(report, write={ARTIFACT: scores(a=1, b=0)}, summary="raised a"),
        3: reporting(report, write={ARTIFACT: scores(a=1, b=1)}, summary="raised b"),
    }
    repo = scenario_repo(
        tmp_path / "repo",
        {ARTIFACT: scores(a=0, b=0)},
        plan,
        config={"mutator": {"sandbox": "on"}, "stop": {"max_cycles": 5, "budget_usd": 1}},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [ln["decision"] for ln in lines] == ["keep", "keep"]  # the next cycle would overspend
    assert (lines[1]["mutation_cost_usd"], lines[1]["tokens_in"], lines[1]["tokens_out"]) == (0.75, 1200, 300)
    assert lines[1]["mutation"] == "raised a"
    assert state(repo)["stop_reason"] == "budget"
    assert "reported no spend" not in done.stderr


def test_a_malformed_cost_file_is_one_warning_an_unreported_spend_is_said_once_a_failed_one_counts(tmp_path):
    plan = {
        2: reporting('{"cost_usd": "lots"}', write={ARTIFACT: scores(a=1, b=0)}, summary="raised a"),
        3: reporting(None, write={ARTIFACT: scores(a=1, b=1)}, summary="raised b"),
        4: reporting(None, write={ARTIFACT: scores(a=0, b=0)}, summary="lowered both"),
        5: reporting('{"cost_usd": 0.3}', exit=3),  # a failed mutation's spend counts all the same
    }
    repo = scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=0, b=0)}, plan, config={"stop": {"budget_usd": 10}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [ln["decision"] for ln in iterations(repo)] == ["keep", "keep", "keep", "drop", "error"]
    assert [ln.get("mutation_cost_usd") for ln in iterations(repo)[1:]] == [0, 0, 0, 0.3]
    [malformed] = [ln for ln in done.stderr.splitlines() if "AUTORESEARCH_COST_FILE (" in ln]
    assert "mutator-cost.json): field 'cost_usd': Input should be a valid number" in malformed
    assert done.stderr.count("reported no spend") == 1
    assert "Traceback" not in done.stderr


CLAUDE_RESULT = {"type": "result", "total_cost_usd": 0.25, "result": "Tightened the rules", "usage": {}}


@pytest.mark.parametrize(
    ("stdout", "cost_file", "counted", "reply", "warning"),
    [
        ("edited\n", None, None, None, None),
        ("edited\n", '{"cost_usd": 0.5}', 0.5, None, None),
        ("edited\n", "{not json", None, None, "field '(the whole file)': Invalid JSON"),
        ("edited\n", "[0.5]", None, None, "field '(the whole file)'"),
        ("edited\n", '{"cost_usd": -1}', None, None, "field 'cost_usd': Input should be greater than or equal to 0"),
        ("edited\n", '{"cost_usd": true}', None, None, "field 'cost_usd'"),
        ("edited\n", '{"cost_usd": 1, "usd": 2}', None, None, "field 'usd': Extra inputs are not permitted"),
        (json.dumps(CLAUDE_RESULT), None, 0.25, "Tightened the rules", None),
        ('{"type": "system"}\n' + json.dumps(CLAUDE_RESULT) + "\n", None, 0.25, "Tightened the rules", None),
        (json.dumps(CLAUDE_RESULT), '{"cost_usd": 0.5}', 0.5, "Tightened the rules", None),  # the file first
        (json.dumps({**CLAUDE_RESULT, "total_cost_usd": "free"}), None, None, "Tightened the rules", None),
        ('{"type": "result", "total_cost_usd": 1e999}', None, None, "", None),  # an agent's output, no message
    ],
)
def test_what_a_command_reports_is_read_as_its_spend(tmp_path, stdout, cost_file, counted, reply, warning):
    path = tmp_path / "mutator-cost.json"
    if cost_file is not None:
        path.write_text(cost_file)
    reading = spend.read(spend.Report(stdout, path))
    assert (reading.spend.cost_usd if reading.spend else None) == counted
    assert reading.reply == reply
    if warning is None:
        assert reading.warnings == ()
    else:
        [said] = reading.warnings
        assert f"$AUTORESEARCH_COST_FILE ({path}): {warning}" in said and "\n" not in said


def test_a_cost_file_that_is_a_link_is_not_followed(tmp_path):
    (tmp_path / "elsewhere.json").write_text('{"cost_usd": 3}')
    (tmp_path / "mutator-cost.json").symlink_to(tmp_path / "elsewhere.json")
    reading = spend.read(spend.Report("", tmp_path / "mutator-cost.json"))
    assert reading.spend is None and "is not a regular file" in reading.warnings[0]


def test_an_agent_that_ends_without_a_message_has_no_summary_not_its_json(tmp_path):
    plain = {"stdout": "edited the scores"}
    silent = {"stdout": json.dumps({"type": "result", "total_cost_usd": 0.1, "usage": {}})}
    plan = {2: {"write": {ARTIFACT: scores(a=1, b=0)}, **plain}, 3: {"write": {ARTIFACT: scores(a=1, b=1)}, **silent}}
    repo = scenario_repo(tmp_path / "repo", {ARTIFACT: scores(a=0, b=0)}, plan, config={"stop": {"max_cycles": 3}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(ln["mutation"], ln.get("mutation_cost_usd")) for ln in lines[1:]] == [
        ("edited the scores", 0),
        ("(no summary)", 0.1),
    ]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_claudes_result_whose_text_holds_a_unicode_line_separator_is_read_as_its_spend(tmp_path, separator):
    """Claude Code (JavaScript's JSON.stringify) writes U+2028 and U+2029 raw: the result line is one line."""
    result = json.dumps({**CLAUDE_RESULT, "result": f"Tightened{separator}the rules"}, ensure_ascii=False)
    reading = spend.read(spend.Report('{"type": "system"}\r\n' + result + "\n", tmp_path / "mutator-cost.json"))
    assert reading.spend is not None and reading.spend.cost_usd == 0.25
    assert reading.reply is not None and reading.reply.startswith("Tightened")
