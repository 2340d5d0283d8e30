"""`tool-trajectory` and multi-turn tests on hostile input: files a target writes, grader fields, turns.

What AgentV 4.42.4 does with each is pinned by the compat cases
(tests/runs/compat/trajectory-conversation, conversation-llm); these check
that nothing here crashes, hangs or errors where AgentV scores.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers.repos import cli
from tests.runs.evaltree import write_tree
from tests.runs.test_targets import rows_of

READ_EDIT = {
    "output": [
        {
            "role": "assistant",
            "content": "done",
            "tool_calls": [{"tool": "Read", "input": {"path": "a"}}, {"tool": "Edit", "input": {"path": "a"}}],
        }
    ]
}


def validate(tmp_path: Path, eval_file: Path) -> subprocess.CompletedProcess:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # targets are searched up to the repository root
    return cli(eval_file.parent, "validate", eval_file.name)


def trajectory(mode: str, **fields) -> dict:
    return {"type": "tool-trajectory", "mode": mode, **fields}


def test_each_mode_scores_the_tool_calls_of_the_target_s_output_messages(tmp_path):
    checks = [
        trajectory("any_order", minimums={"Read": 1, "Write": 1}),
        trajectory(
            "in_order", expected=[{"tool": "Read", "args": {"path": "a"}}, {"tool": "Edit", "args": {"path": "b"}}]
        ),
        trajectory("exact", expected=[{"tool": "Read"}, {"tool": "Edit"}]),
        trajectory("superset", expected=[{"tool": "Edit"}, {"tool": "Edit"}]),
        trajectory("subset", expected=[{"tool": "Read"}]),
        trajectory("in_order", args_match="ignore", expected=[{"tool": "Read", "args": {"x": 1}}]),
    ]
    rows = rows_of(tmp_path, [{"id": "t", "input": "x", "assertions": checks}], {"t": READ_EDIT})
    assert [s["score"] for s in rows["t"]["scores"]] == [0.5, 0.5, 1.0, 0.5, 0.5, 1.0]
    assert rows["t"]["execution_status"] == "quality_failure"


def test_an_output_file_agentv_cannot_read_is_the_answer_as_text_with_no_tool_calls(tmp_path):
    broken = {
        "truncated": '{"output": [{"role": "assistant", "tool_calls": [{"tool": "Read"}]}',
        "nan": '{"output": [{"role": "assistant", "content": "x", "tool_calls": [{"tool": "Read", "duration_ms": NaN}]}]}',
        "deep": "[" * 50000 + "]" * 50000,
        "tool-not-text": json.dumps({"output": [{"role": "assistant", "tool_calls": [{"tool": 7}]}]}),
        "null-usage": json.dumps(
            {"text": "t", "token_usage": None, "output": [{"role": "assistant", "tool_calls": [{"tool": "Read"}]}]}
        ),
    }
    checks = [trajectory("any_order", minimums={"Read": 1}), {"type": "execution-metrics", "max_tool_calls": 0}]
    tests = [
        {"id": name, "input": "x", "assertions": [*checks, {"type": "equals", "value": text}]}
        for name, text in broken.items()
    ]
    rows = rows_of(tmp_path, tests, broken)
    for name in broken:
        assert rows[name]["execution_status"] == "quality_failure", (name, rows[name].get("error"))
        assert [s["score"] for s in rows[name]["scores"]] == [0.0, 1.0, 1.0], name


def test_a_hundred_thousand_tool_calls_are_graded(tmp_path):
    calls = [{"tool": f"T{i % 7}", "input": {"i": i}} for i in range(100_000)]
    checks = [
        trajectory("any_order", minimums={"T0": 14286, "T6": 14286}),
        trajectory("subset", expected=[{"tool": "T0"}, {"tool": "T1"}]),
        trajectory("superset", expected=[{"tool": "T6", "args": {"i": 99_999}}]),
        {"type": "execution-metrics", "max_tool_calls": 100_000},
    ]
    rows = rows_of(
        tmp_path,
        [{"id": "big", "input": "x", "assertions": checks}],
        {"big": {"output": [{"role": "assistant", "content": "ok", "tool_calls": calls}]}},
    )
    assert [s["score"] for s in rows["big"]["scores"]] == [0.5, pytest.approx(2 / 7, abs=1e-4), 0.0, 1.0]


def test_fields_agentv_drops_are_dropped_with_a_note_and_the_test_still_runs(tmp_path):
    checks = [
        trajectory("sideways", expected=[]),
        trajectory("any_order"),
        trajectory("in_order", expected="Read"),
        trajectory("any_order", minimums={"Read": "one", "Edit": -1, "Grep": 0}, args_match=5),
        trajectory(
            "exact",
            expected=[
                "Read",
                {"tool": 3},
                {"tool": "Read", "args": "some", "max_duration_ms": "fast"},
                {"tool": "Edit"},
            ],
        ),
    ]
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": checks}], {"t": READ_EDIT})
    done = validate(tmp_path, eval_file)
    assert done.returncode == 0, done.stdout + done.stderr
    notes = [line for line in done.stdout.splitlines() if "skipped as AgentV skips it" in line]
    assert len(notes) == 3 and "invalid mode 'sideways'" in notes[0] and "requires minimums" in notes[1], done.stdout
    rows = rows_of(tmp_path, [{"id": "t", "input": "x", "assertions": checks}], {"t": READ_EDIT})
    assert [s["score"] for s in rows["t"]["scores"]] == [1.0, 1.0]  # Grep >= 0; Read then Edit (bad items left out)


def test_malformed_turns_are_named_and_turns_without_conversation_mode_are_ignored(tmp_path):
    bad = {
        "id": "bad",
        "mode": "conversation",
        "input": "x",
        "turns": [{"input": "a"}, "b", {"expected_output": "c"}, {"input": "d", "assertions": "e"}],
    }
    done = validate(tmp_path, write_tree(tmp_path, [bad], {}))
    assert done.returncode == 30
    errors = [line.split("field ")[1].split(":")[0] for line in done.stdout.splitlines() if "'bad': field" in line]
    assert errors == ["'turns[1]'", "'turns[2]'", "'turns[3].assertions'"], done.stdout
    plain = {
        "id": "not-a-conversation",
        "mode": "chat",
        "input": "x",
        "turns": [{"input": "a"}],
        "assertions": [{"type": "contains", "value": "x"}],
    }
    done = validate(tmp_path, write_tree(tmp_path, [plain], {}))
    assert done.returncode == 0 and "'not-a-conversation': field 'mode': ignored" in done.stdout, done.stdout


def test_a_conversation_on_a_cli_target_fails_each_turn_as_agentv_4_42_4_does_and_is_scored(tmp_path):
    tests = [
        {
            "id": "chat",
            "mode": "conversation",
            "on_turn_failure": "stop",
            "input": "x",
            "turns": [{"input": "a", "assertions": [{"type": "contains", "value": "a"}]}, {"input": "b"}],
        }
    ]
    rows = rows_of(tmp_path, tests, {"chat/turn-1": "a"})
    assert rows["chat"]["execution_status"] == "quality_failure" and rows["chat"]["score"] == 0.0
    assert [(s["name"], s["verdict"]) for s in rows["chat"]["scores"]] == [("turn-1", "fail"), ("turn-2", "skip")]
    assert "ENOENT" in rows["chat"]["scores"][0]["assertions"][0]["text"]


def replay_tree(tmp_path: Path, fixtures: str, target: dict | None = None) -> Path:
    replay = {
        "name": "canned",
        "provider": "replay",
        "fixtures": "../fixtures.jsonl",
        "source_target": "live",
        **(target or {}),
    }
    tests = [
        {"id": name, "input": "x", "assertions": [trajectory("any_order", minimums={"Read": 1})]} for name in ("a", "b")
    ]
    eval_file = write_tree(tmp_path, tests, {}, suite={"name": "s"}, targets=[replay])
    (tmp_path / "fixtures.jsonl").write_text(fixtures)
    return eval_file


def fixture(test_id: str, **fields) -> str:
    return (
        json.dumps(
            {
                "schema_version": "agentv.replay_fixture.v1",
                "suite": "s",
                "test_id": test_id,
                "source_target": "live",
                "output": [{"role": "assistant", "content": "ok", "tool_calls": [{"tool": "Read"}]}],
                **fields,
            }
        )
        + "\n"
    )


def test_a_replay_target_answers_from_its_fixtures_and_a_bad_line_fails_every_test(tmp_path):
    from autoresearch.runs.evaluators.builtin import execute, prepare
    from autoresearch.runs.results import load_rows
    from autoresearch.runs.runner.run import RunOptions

    def rows(fixtures: str) -> dict[str, dict]:
        eval_file = replay_tree(tmp_path, fixtures)
        execute(prepare(eval_file, tmp_path), tmp_path / "out", RunOptions(workers=2), show_progress=False)
        return {row["test_id"]: row for row in load_rows(tmp_path / "out")}

    found = rows(fixture("a") + "\n" + fixture("b", output=[]))
    assert (found["a"]["score"], found["b"]["score"], found["b"]["execution_status"]) == (1.0, 0.0, "quality_failure")
    for broken in (
        "{not json\n",
        fixture("a", duration_ms=-1),
        fixture("a", output=[{"role": "", "content": "x"}]),
        fixture("a", attempt=True),
    ):
        found = rows(fixture("b") + broken)
        assert all(
            row["execution_status"] == "execution_error" and "Invalid replay fixture record" in row["error"]
            for row in found.values()
        ), broken
    (tmp_path / "fixtures.jsonl").unlink()
    execute(
        prepare(tmp_path / "evals" / "suite.eval.yaml", tmp_path), tmp_path / "out", RunOptions(), show_progress=False
    )
    assert all("not found or unreadable" in row["error"] for row in load_rows(tmp_path / "out"))


def test_a_replay_target_without_its_source_or_from_execution_traces_is_refused_by_name(tmp_path):
    eval_file = replay_tree(tmp_path, "", {"execution_traces": "t.jsonl", "source_target": None})
    done = validate(tmp_path, eval_file)
    assert done.returncode == 30
    assert (
        "targets[canned].execution_traces': unsupported" in done.stdout
        and "targets[canned].source_target': required" in done.stdout
    ), done.stdout


def test_a_test_id_with_a_slash_fails_on_a_cli_target_as_in_agentv_4_42_4(tmp_path):
    tests = [
        {"id": name, "input": "x", "assertions": [{"type": "contains", "value": "a"}]}
        for name in ("plain", "group/case")
    ]
    rows = rows_of(tmp_path, tests, {"plain": "a", "group/case": "a"})
    assert (rows["plain"]["score"], rows["group/case"]["execution_status"]) == (1.0, "execution_error")
    assert "ENOENT" in rows["group/case"]["error"]


def test_a_skill_trigger_without_a_skill_is_dropped_and_odd_tool_inputs_are_read_as_javascript_reads_them(tmp_path):
    checks = [
        {"type": "skill-trigger", "skill": 3},
        {"type": "skill-trigger"},
        {"type": "skill-trigger", "skill": "csv"},
        {"type": "skill-trigger", "skill": "csv", "should_trigger": "false"},  # not a boolean: true
    ]
    odd = {
        "role": "assistant",
        "content": "x",
        "tool_calls": [
            {"tool": "Skill", "input": {"skill": {"name": "csv"}}},  # String({...}) is "[object Object]"
            {"tool": "Skill", "input": {"skill": [1.0, True, None, "csv-tool"]}},  # "1,true,,csv-tool"
        ],
    }
    eval_file = write_tree(tmp_path, [{"id": "t", "input": "x", "assertions": checks}], {"t": {"output": [odd]}})
    done = validate(tmp_path, eval_file)
    assert done.returncode == 0, done.stdout + done.stderr
    notes = [line for line in done.stdout.splitlines() if "skipped as AgentV skips it: missing skill" in line]
    assert len(notes) == 2, done.stdout
    rows = rows_of(tmp_path, [{"id": "t", "input": "x", "assertions": checks}], {"t": {"output": [odd]}})
    assert [(s["name"], s["score"]) for s in rows["t"]["scores"]] == [("skill-trigger-csv", 1.0)] * 2
    assert rows["t"]["scores"][0]["assertions"][0]["text"] == 'Skill tool invoked with skill="1,true,,csv-tool"'


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_replay_fixture_whose_text_holds_a_unicode_line_separator_is_one_record(tmp_path, separator):
    """JSON leaves U+2028, U+2029 and U+0085 raw in a string: the record that holds one is not refused."""
    from autoresearch.runs.targets.replay import read_records

    answer = [{"role": "assistant", "content": f"one{separator}two"}]
    lines = [json.loads(fixture(name, output=answer)) for name in ("a", "b")]
    path = tmp_path / "fixtures.jsonl"
    path.write_text("\r\n".join(json.dumps(line, ensure_ascii=False) for line in lines), newline="")
    assert [record["test_id"] for record in read_records(path)] == ["a", "b"]
