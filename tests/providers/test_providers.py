"""providers through the real SDKs against the wire-level fake server: replies, usage, retries, failures."""

from __future__ import annotations

import json
import logging
import socket
import subprocess
import sys

import pytest

from autoresearch.providers import ProviderFailed, ProviderSettings, ProviderUnusable, complete, cost_usd
from autoresearch.providers.retry import TABLES
from tests.helpers.fake_llm import (
    cut_stream,
    error_reply,
    patched_reply,
    plain_reply,
    raw_reply,
    text_reply,
    tool_reply,
)

PROTOCOLS = ["anthropic", "openai"]
BOTH_WAYS = [(p, s) for p in PROTOCOLS for s in (False, True)]


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-secret-value")


def settings(llm, protocol, **overrides) -> ProviderSettings:
    base = dict(api_key_env="TEST_LLM_KEY", base_url=llm.base_url(protocol), max_attempts=4, retry_base_s=0.01)
    return ProviderSettings(protocol, overrides.pop("model", "claude-haiku-4-5"), **{**base, **overrides})


@pytest.mark.parametrize("protocol,stream", BOTH_WAYS)
def test_complete_returns_text_usage_and_cost(fake_llm, protocol, stream):
    fake_llm.queue(text_reply("Paris", input_tokens=1_000_000, output_tokens=100_000))
    reply = complete(settings(fake_llm, protocol, stream=stream, temperature=0.2), "Capital?", system="Be brief.")
    assert (reply.text, reply.input_tokens, reply.output_tokens) == ("Paris", 1_000_000, 100_000)
    assert reply.cost_usd == pytest.approx(1.0 + 0.5)  # claude-haiku-4-5: $1 in, $5 out per Mtok
    body = fake_llm.requests[0].body
    assert body["stream"] is True if stream else "stream" not in body
    assert "Be brief." in str(body) and body["temperature"] == 0.2


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_reply_that_is_not_a_json_object_is_retried_then_fails_the_call(fake_llm, protocol):
    fake_llm.handler = lambda req: raw_reply("<html>Sign in to the hotel wifi</html>")
    with pytest.raises(
        ProviderFailed,
        match=f"{protocol}: gave up after 4 attempts .*the server's reply is not a JSON object .*hotel wifi",
    ):
        complete(settings(fake_llm, protocol), "hi")
    assert len(fake_llm.requests) == 4


# (protocol, stream, a 200 that is not the API's reply or reports an error mid-stream, words of the error it ends in)
MALFORMED = [
    *[
        (p, False, raw_reply('{"choices": [{"mess', "application/json"), "the server's reply is not valid JSON")
        for p in PROTOCOLS
    ],
    *[
        (
            p,
            False,
            raw_reply('{"choices": ' + "[" * 100_000 + "]" * 100_000 + "}", "application/json"),
            "nested too deeply",
        )
        for p in PROTOCOLS
    ],
    *[
        (p, True, plain_reply("whole"), "a stream was asked for and the server answered application/json")
        for p in PROTOCOLS
    ],
    *[(p, True, cut_stream(2, hang_up=False), "cut short") for p in PROTOCOLS],
    (
        "anthropic",
        True,
        raw_reply("event: message_start\ndata: {not json\n\n", "text/event-stream"),
        "an event of the stream is not valid JSON",
    ),
    ("openai", True, raw_reply("data: {not json\n\n", "text/event-stream"), "an event of the stream is not valid JSON"),
    (
        "anthropic",
        True,
        raw_reply(
            'event: message_start\ndata: {"type": "message_start", "message": {"usage": {}}}\n\n'
            'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 3, "delta": {}}\n\n',
            "text/event-stream",
        ),
        "a delta for content block 3, which never started",
    ),
    (
        "openai",
        True,
        raw_reply('data: {"choices": [{"index": 0, "delta": {"content": 7}}]}\n\n', "text/event-stream"),
        "`choices.0.delta.content` is a number",
    ),
    (
        "anthropic",
        True,
        raw_reply(
            'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n',
            "text/event-stream",
        ),
        "Overloaded",
    ),  # an error event mid-stream: the server failed mid-answer
    (
        "openai",
        True,
        raw_reply('data: {"error": {"message": "failed mid-answer"}}\n\n', "text/event-stream"),
        "failed mid-answer",
    ),
    ("anthropic", True, cut_stream(2), "the stream broke off (RemoteProtocolError"),
    ("openai", True, cut_stream(2), "APIConnectionError"),  # the OpenAI SDK wraps a broken-off stream itself
    ("openai", False, patched_reply({"choices": "oops"}), "`choices` is a string, not a list"),
    ("openai", False, patched_reply({"choices": []}), "`choices` is empty"),
    ("openai", False, patched_reply({"usage": [1, 2]}), "`usage` is a list, not an object"),
    (
        "openai",
        False,
        patched_reply({"usage.prompt_tokens": "10"}),
        "`usage.prompt_tokens` is a string, not a token count",
    ),
    ("openai", False, patched_reply({"choices.0.message.content": 5}), "`choices.0.message.content` is a number"),
    (
        "openai",
        False,
        patched_reply({"choices.0.message.tool_calls": [{"function": 1}]}),
        "`choices.0.message.tool_calls.0.function` is a number",
    ),
    ("anthropic", False, patched_reply({"content": 5}), "`content` is a number, not a list"),
    ("anthropic", False, patched_reply({"content": ["hi"]}), "`content.0` is a string, not an object"),
    ("anthropic", False, patched_reply({"content.0.text": None}), "`content.0.text` is null, not a string"),
    ("anthropic", False, patched_reply({"usage": [1, 2]}), "`usage` is a list, not an object"),
    (
        "anthropic",
        False,
        patched_reply({"usage.output_tokens": -1}),
        "`usage.output_tokens` is a number, not a token count",
    ),
    # a count no reply can have: 10**400 overflowed the float of the cost (a traceback), 10**13 would spend the budget
    (
        "openai",
        False,
        patched_reply({"usage.prompt_tokens": 10**400}),
        "`usage.prompt_tokens` is a number, not a token count",
    ),
    (
        "anthropic",
        False,
        patched_reply({"usage.output_tokens": 10**13}),
        "`usage.output_tokens` is a number, not a token count",
    ),
    # a number of more digits than Python converts (4300) raises ValueError, not JSONDecodeError, in the SDK's decoder
    *[
        (
            p,
            False,
            raw_reply('{"usage": {"output_tokens": ' + "9" * 5000 + "}}", "application/json"),
            "not JSON that can be read",
        )
        for p in PROTOCOLS
    ],
    (
        "openai",
        True,
        raw_reply('data: {"choices": [], "usage": {"prompt_tokens": ' + "9" * 5000 + "}}\n\n", "text/event-stream"),
        "an event of the stream is not JSON that can be read",
    ),
    *[
        (p, False, raw_reply(b'{"choices": "\xff\xfe"}', "application/json"), "not JSON that can be read")
        for p in PROTOCOLS
    ],
    # a lone surrogate (JSON may escape one) is no text: it would fail where the changelog or the history is written
    ("anthropic", False, patched_reply({"content.0.text": "\ud800"}), "a lone surrogate"),
    ("openai", False, patched_reply({"choices.0.message.content": "\udfff"}), "a lone surrogate"),
    (
        "anthropic",
        True,
        raw_reply(
            'event: message_start\ndata: {"type": "message_start", "message": {"content": [], "usage": {}}}\n\n'
            'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, '
            '"content_block": {"type": "text", "text": "\\ud800"}}\n\n',
            "text/event-stream",
        ),
        "a lone surrogate",
    ),
]


@pytest.mark.parametrize("protocol,stream,reply,words", MALFORMED)
def test_a_malformed_reply_is_retried_like_a_5xx_and_fails_the_call_once_retries_run_out(
    fake_llm, protocol, stream, reply, words, caplog
):
    fake_llm.queue(reply, text_reply("ok"))
    with caplog.at_level(logging.WARNING, logger="autoresearch.providers"):
        assert complete(settings(fake_llm, protocol, stream=stream), "hi").text == "ok"
    assert len(fake_llm.requests) == 2 and words in caplog.text
    fake_llm.queue(*[reply] * 4)
    with pytest.raises(ProviderFailed, match=f"^{protocol}: gave up after 4 attempts") as caught:
        complete(settings(fake_llm, protocol, stream=stream), "hi")
    assert words in str(caught.value) and len(fake_llm.requests) == 6


def test_recorded_requests_carry_no_key(fake_llm):
    complete(settings(fake_llm, "anthropic"), "hi")
    complete(settings(fake_llm, "openai"), "hi")
    assert all("sk-test-secret-value" not in str(r.headers) for r in fake_llm.requests)
    assert len(fake_llm.requests) == 2


def test_role_messages_put_system_apart_for_anthropic(fake_llm):
    prompt = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "U"},
        {"role": "assistant", "content": "A"},
        {"role": "user", "content": "U2"},
    ]
    complete(settings(fake_llm, "anthropic"), prompt)
    body = fake_llm.requests[0].body
    assert body["system"] == "S" and [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]


@pytest.mark.parametrize("protocol,stream", BOTH_WAYS)
def test_429_and_500_are_retried_honouring_retry_after(fake_llm, protocol, stream):
    fake_llm.queue(
        error_reply(429, retry_after=0.01), error_reply(500), error_reply(529, retry_after=0.01), text_reply("ok")
    )
    assert complete(settings(fake_llm, protocol, stream=stream), "hi").text == "ok"
    assert len(fake_llm.requests) == 4


def test_retries_are_bounded_in_attempts(fake_llm):
    fake_llm.handler = lambda req: error_reply(503, retry_after=0.01)
    with pytest.raises(ProviderFailed, match="openai: gave up after 4 attempts"):
        complete(settings(fake_llm, "openai"), "hi")
    assert len(fake_llm.requests) == 4


def test_retries_are_bounded_in_time(fake_llm):
    fake_llm.handler = lambda req: error_reply(429, retry_after=30)
    with pytest.raises(ProviderFailed, match="gave up after 1 attempts"):
        complete(settings(fake_llm, "anthropic", retry_budget_s=5), "hi")


def test_connection_errors_are_retried_then_fail():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens there
    config = ProviderSettings(
        "openai",
        "m",
        api_key_env="TEST_LLM_KEY",
        base_url=f"http://127.0.0.1:{port}/v1",
        max_attempts=2,
        retry_base_s=0.01,
    )
    with pytest.raises(ProviderFailed, match="gave up after 2 attempts.*APIConnectionError"):
        complete(config, "hi")


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(
    "status,words", [(401, "authentication failed"), (403, "access refused"), (404, "model 'no-such-model' not found")]
)
def test_auth_and_unknown_model_stop_at_once_naming_provider_and_variable(fake_llm, protocol, status, words):
    fake_llm.queue(error_reply(status))
    with pytest.raises(ProviderUnusable) as caught:
        complete(settings(fake_llm, protocol, model="no-such-model"), "hi")
    message = str(caught.value)
    assert message.startswith(f"{protocol}: {words}") and caught.value.exit_code == 40
    assert ("TEST_LLM_KEY" in message) if status != 404 else ("no-such-model" in message)
    assert len(fake_llm.requests) == 1


def test_a_bad_request_is_not_retried(fake_llm):
    fake_llm.queue(error_reply(400, message="prompt is too long"))
    with pytest.raises(ProviderFailed, match="request refused.*prompt is too long"):
        complete(settings(fake_llm, "anthropic"), "hi")
    assert len(fake_llm.requests) == 1


def test_a_missing_key_names_the_variable(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ProviderUnusable, match="No key found: set ANTHROPIC_API_KEY"):
        complete(ProviderSettings("anthropic", "m"), "hi")


@pytest.mark.parametrize("sdk_name", PROTOCOLS)
def test_retry_table_knows_every_error_class_the_sdk_exports(sdk_name):
    """A new exported error class needs a decision. (Anthropic's typed error bodies under `anthropic.types`,
    such as admin-API errors, subclass an exported class of the same status and follow its rule.)"""
    sdk = __import__(sdk_name)
    classes = {name: getattr(sdk, name) for name in dir(sdk)}
    exported = {name for name, value in classes.items() if isinstance(value, type) and issubclass(value, sdk.APIError)}
    assert len(exported) > 10
    assert sorted(exported - set(TABLES[sdk_name])) == []


def test_an_unlisted_subclass_follows_its_nearest_listed_base():
    import anthropic
    import httpx2

    from autoresearch.providers.retry import rule_for

    response = httpx2.Response(529, request=httpx2.Request("POST", "http://127.0.0.1/v1/messages"))
    busy = anthropic.types.CompactionUnavailableError("busy", response=response, body=None)
    assert "CompactionUnavailableError" not in TABLES["anthropic"]
    assert rule_for("anthropic", busy).action == "retry"


def test_prices_match_dated_models_take_overrides_and_warn_once_for_unknown(caplog):
    assert cost_usd("claude-sonnet-4-5-20250929", 1_000_000, 0) == 3.0
    # a newer model is priced as itself, not as the older family its name starts with
    assert [cost_usd(m, 1_000_000, 0) for m in ("claude-opus-4-6", "claude-opus-5-5", "claude-opus-4")] == [
        5.0,
        4.0,
        15.0,
    ]
    assert cost_usd("gpt-4o-mini", 0, 1_000_000) == 0.6
    assert cost_usd("mine", 2_000_000, 0, {"mine": {"input_per_mtok": 0.5, "output_per_mtok": 1}}) == 1.0
    with caplog.at_level(logging.WARNING, logger="autoresearch.providers"):
        assert cost_usd("unpriced-model-x", 10, 10) == 0.0
        assert cost_usd("unpriced-model-x", 10, 10) == 0.0
    assert sum("unpriced-model-x" in r.getMessage() for r in caplog.records) == 1


def test_importing_the_project_does_not_import_an_sdk():
    code = "import sys, autoresearch.providers, autoresearch.mutators.registry, autoresearch.plumbing.errors; print('anthropic' in sys.modules or 'openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


HUGE_ARGUMENTS = '{"path": ' + "9" * 5000 + "}"  # more digits than Python converts: a ValueError, not a JSONDecodeError


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_tool_arguments_no_json_reader_can_turn_into_values_are_a_problem_of_that_call_not_a_crash(fake_llm, protocol):
    from autoresearch.providers import Conversation, Tool

    if protocol == "openai":
        fake_llm.queue(tool_reply("read_file", HUGE_ARGUMENTS))
    else:  # streamed: the wire reads the input's JSON itself (a plain reply would be malformed as a whole)
        start = {"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 1}}}
        block = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "t1", "name": "read_file", "input": {}},
        }
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": HUGE_ARGUMENTS},
        }
        frames = [start, block, delta, {"type": "message_stop"}]
        fake_llm.queue(
            raw_reply("".join(f"event: {f['type']}\ndata: {json.dumps(f)}\n\n" for f in frames), "text/event-stream")
        )
    tool = Tool("read_file", "read", {"type": "object"})
    turn = Conversation(settings(fake_llm, protocol, stream=protocol == "anthropic"), "hi", tools=[tool]).ask()
    (call,) = turn.tool_calls
    assert call.arguments is None and "arguments" in call.problem
