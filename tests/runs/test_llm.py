"""LLM targets and graders (anthropic and openai, through the real SDKs) against the fake LLM server."""

from __future__ import annotations

import json

import pytest

from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import RunOptions
from tests.helpers.fake_llm import FakeLLM, error_reply, text_reply
from tests.runs.evaltree import canned_command, write_tree

VERDICT = text_reply(json.dumps({"score": 1, "assertions": [{"text": "fine", "passed": True}]}))


@pytest.fixture
def llm(monkeypatch):
    monkeypatch.setenv("FAKE_MODEL", "fake-model")
    monkeypatch.setenv("FAKE_KEY", "fake-key")
    with FakeLLM() as server:
        yield server


def llm_targets(llm, protocol="openai", grader_for_cli=True, timeout=None):
    base = {
        "provider": protocol,
        "model": "${{ FAKE_MODEL }}",
        "api_key": "${{ FAKE_KEY }}",
        "base_url": llm.base_url(protocol),
    }
    if timeout is not None:
        base["timeout_seconds"] = timeout
    canned = {"name": "canned", "provider": "cli", "command": canned_command()}
    if grader_for_cli:
        canned["grader_target"] = "judge"
    return [canned, {"name": "judge", **base}, {"name": "bot", **base}]


def run(
    tmp_path, llm, tests, answers=None, target="canned", options=RunOptions(workers=4), protocol="openai", timeout=None
):
    targets = llm_targets(llm, protocol, timeout=timeout)
    eval_file = write_tree(tmp_path, tests, answers or {}, {"execution": {"target": target}}, targets)
    execute(prepare(eval_file, tmp_path), tmp_path / "out", options, show_progress=False)
    return {r["test_id"]: r for r in load_rows(tmp_path / "out")}


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_llm_target_answers_and_reports_tokens(tmp_path, llm, protocol):
    llm.handler = lambda req: text_reply("Paris", input_tokens=12, output_tokens=3)
    rows = run(
        tmp_path,
        llm,
        [{"id": "q", "input": "Capital of France?", "assertions": [{"type": "equals", "value": "Paris"}]}],
        target="bot",
        protocol=protocol,
    )
    assert rows["q"]["score"] == 1.0 and rows["q"]["token_usage"] == {"input": 12, "output": 3}
    assert "Capital of France?" in json.dumps(llm.requests[0].body)


def test_a_provider_error_that_echoes_the_key_is_masked_in_the_row(tmp_path, llm, monkeypatch):
    llm_key = "fake-key-0123456789"
    monkeypatch.setenv("FAKE_KEY", llm_key)
    llm.handler = lambda req: error_reply(400, message=f"invalid key {llm_key} for this model")
    rows = run(
        tmp_path, llm, [{"id": "q", "input": "hi", "assertions": [{"type": "contains", "value": "x"}]}], target="bot"
    )
    assert rows["q"]["execution_status"] == "execution_error"
    assert "invalid key *** for this model" in rows["q"]["error"] and llm_key not in rows["q"]["error"]


def test_llm_grader_custom_prompt_and_implicit_grader(tmp_path, llm):
    llm.handler = lambda req: text_reply(
        json.dumps({"score": 0.7, "assertions": [{"text": "polite", "passed": True, "evidence": "says please"}]})
    )
    tests = [
        {
            "id": "custom",
            "input": "Q1",
            "expected_output": "E1",
            "criteria": "C1",
            "assertions": [
                {
                    "type": "llm-grader",
                    "prompt": "In {{input}} out {{output}} exp {{expected_output}} crit {{criteria}}",
                }
            ],
        },
        {"id": "implicit", "input": "Q2", "criteria": "be polite"},
    ]
    rows = run(tmp_path, llm, tests, {"custom": "A1", "implicit": "A2"})
    assert rows["custom"]["score"] == 0.7 and rows["implicit"]["score"] == 0.7
    assert rows["implicit"]["scores"][0]["type"] == "llm-grader"
    assert rows["custom"]["assertions"] == [{"text": "polite", "passed": True, "evidence": "says please"}]
    prompts = [json.dumps(r.body) for r in llm.requests]
    assert any("In Q1 out A1 exp E1 crit C1" in p for p in prompts)


def test_rubric_score_is_satisfied_weight_over_total_and_a_failed_required_item_fails_the_verdict_only(tmp_path, llm):
    checks = [
        {"id": "a", "satisfied": True, "reasoning": "ok"},
        {"id": "b", "satisfied": False, "reasoning": "no"},
        {"id": "c", "satisfied": True, "reasoning": "ok"},
    ]
    llm.handler = lambda req: text_reply(json.dumps({"checks": checks, "overall_reasoning": "mostly"}))
    rubric = [
        {"id": "a", "outcome": "A", "weight": 1},
        {"id": "b", "outcome": "B", "weight": 2, "required": False},
        {"id": "c", "outcome": "C", "weight": 8},
    ]
    tests = [
        {"id": "optional", "input": "x", "assertions": [{"type": "rubrics", "rubrics": rubric}]},
        {
            "id": "required",
            "input": "x",
            "assertions": [{"type": "rubrics", "rubrics": [*rubric[:1], {**rubric[1], "required": True}, rubric[2]]}],
        },
    ]
    rows = run(tmp_path, llm, tests)
    assert [(rows[t]["score"], rows[t]["scores"][0]["verdict"]) for t in ("optional", "required")] == [
        (9 / 11, "pass"),
        (9 / 11, "fail"),
    ]
    assert rows["required"]["assertions"][1] == {"text": "[b] B", "passed": False, "evidence": "no"}


def test_malformed_grader_json_is_retried_then_an_execution_error(tmp_path, llm):
    replies = iter(["not json", json.dumps({"score": 1, "assertions": []})])
    llm.handler = lambda req: text_reply(next(replies, "still not json"))
    rows = run(
        tmp_path,
        llm,
        [{"id": "retried", "input": "x", "assertions": [{"type": "llm-grader"}]}],
        options=RunOptions(workers=1),
    )
    assert rows["retried"]["score"] == 1.0
    llm.handler = lambda req: text_reply("never json")
    rows = run(tmp_path / "again", llm, [{"id": "broken", "input": "x", "assertions": [{"type": "llm-grader"}]}])
    assert rows["broken"]["execution_status"] == "execution_error" and "3 attempts" in rows["broken"]["error"]


def test_requests_to_the_llm_overlap(tmp_path, llm):
    llm.latency_s = 0.2
    llm.handler = lambda req: text_reply("ok")
    tests = [{"id": f"t{i}", "input": f"q{i}", "assertions": [{"type": "contains", "value": "ok"}]} for i in range(8)]
    run(tmp_path, llm, tests, target="bot", options=RunOptions(workers=8))
    assert llm.max_concurrent == 8


@pytest.mark.parametrize("role", ["target", "grader"])
def test_a_rate_limited_request_is_retried_and_the_test_scored(tmp_path, llm, role):
    llm.queue(error_reply(429, retry_after=0.01), text_reply("Paris") if role == "target" else VERDICT)
    check = {"type": "equals", "value": "Paris"} if role == "target" else {"type": "llm-grader"}
    tests = [{"id": "q", "input": "Capital of France?", "assertions": [check]}]
    rows = run(tmp_path, llm, tests, {"q": "Paris"}, target="bot" if role == "target" else "canned")
    assert (rows["q"]["execution_status"], rows["q"]["score"], len(llm.requests)) == ("ok", 1.0, 2)


@pytest.mark.parametrize(
    "fault,words",
    [
        (error_reply(400, message="grader model refused"), "request refused (BadRequestError 400"),
        (error_reply(429, retry_after=0.01), "gave up after 6 attempts"),
    ],
)
def test_a_grader_provider_fault_fails_its_test_and_the_run_goes_on(tmp_path, llm, fault, words):
    llm.handler = lambda req: fault if "BROKEN" in json.dumps(req.body) else VERDICT
    tests = [{"id": i, "input": "x", "assertions": [{"type": "llm-grader"}]} for i in ("good", "bad", "also-good")]
    rows = run(
        tmp_path, llm, tests, {"good": "fine", "bad": "BROKEN", "also-good": "fine"}, options=RunOptions(workers=1)
    )
    assert [rows[i]["execution_status"] for i in ("good", "bad", "also-good")] == ["ok", "execution_error", "ok"]
    assert rows["bad"]["error"].startswith("grader failed: grader judge: openai: ") and words in rows["bad"]["error"]


@pytest.mark.parametrize("latency_s,reply", [(30.0, text_reply("too late")), (0.0, error_reply(429, retry_after=30))])
def test_an_llm_target_out_of_time_is_an_execution_error_and_retries_stop(tmp_path, llm, latency_s, reply):
    """Slow replies and a retry-after past the deadline both end the answer at timeout_seconds. The test's
    duration includes the first call's import of the SDK (seconds on a loaded machine): the reply and the
    retry-after are far enough (30 s) that ending well before them is not a race with that import."""
    llm.latency_s, llm.handler = latency_s, lambda req: reply
    rows = run(
        tmp_path,
        llm,
        [{"id": "q", "input": "x", "assertions": [{"type": "contains", "value": "x"}]}],
        target="bot",
        timeout=0.5,
    )
    assert rows["q"]["execution_status"] == "execution_error"
    assert rows["q"]["error"].startswith("target bot timed out after 0.5s")
    assert len(llm.requests) == 1 and rows["q"]["duration_ms"] < 15_000


def test_a_grader_out_of_time_fails_its_test(tmp_path, llm):
    llm.latency_s, llm.handler = 3.0, lambda req: VERDICT
    rows = run(
        tmp_path, llm, [{"id": "q", "input": "x", "assertions": [{"type": "llm-grader"}]}], {"q": "fine"}, timeout=0.5
    )
    assert rows["q"]["execution_status"] == "execution_error"
    assert rows["q"]["error"].startswith("grader failed: grader judge timed out after 0.5s")


def test_grading_is_bounded_per_call_not_counted_in_the_answers_time(tmp_path, llm):
    """The answer and the grading each take most of timeout_seconds; together they exceed it, and the test is scored.
    Each call has 1.5 s beyond the model's 2 s for its request on a loaded machine (0.5 s was not always enough)."""
    llm.latency_s, llm.handler = 2.0, lambda req: VERDICT
    rows = run(tmp_path, llm, [{"id": "q", "input": "x", "criteria": "anything"}], target="bot", timeout=3.5)
    assert (rows["q"]["execution_status"], rows["q"]["score"], len(llm.requests)) == ("ok", 1.0, 2)


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_an_llm_target_gets_the_chat_prompt_agentv_sends(tmp_path, llm, protocol):
    """Leading system turns are the system prompt (AgentV's default without one); a later system turn is an
    assistant turn labelled @[System]:; a file part is its text in <file path> tags."""
    llm.handler = lambda req: text_reply("ok")
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "notes.txt").write_text("NOTE TEXT\n")
    tests = [
        {"id": "plain", "input": "Hi", "assertions": [{"type": "equals", "value": "ok"}]},
        {
            "id": "turns",
            "input": [
                {"role": "system", "content": "Be brief."},
                {
                    "role": "user",
                    "content": [{"type": "text", "value": "Read"}, {"type": "file", "value": "notes.txt"}],
                },
                {"role": "system", "content": "Late rule."},
            ],
            "assertions": [{"type": "equals", "value": "ok"}],
        },
    ]
    run(tmp_path, llm, tests, target="bot", protocol=protocol, options=RunOptions(workers=1))
    sent = {json.dumps(r.body).count("Read"): r.body for r in llm.requests}
    plain, turns = sent[0], sent[1]

    def conversation(body):
        system = body.get("system") or next(m["content"] for m in body["messages"] if m["role"] == "system")
        return system, [(m["role"], m["content"]) for m in body["messages"] if m["role"] != "system"]

    assert conversation(plain) == (
        "You are a careful assistant. Follow all provided instructions and do not fabricate results.",
        [("user", "Hi")],
    )
    assert conversation(turns) == (
        "Be brief.",
        [("user", 'Read\n<file path="notes.txt">\nNOTE TEXT\n</file>'), ("assistant", "@[System]:\nLate rule.")],
    )
