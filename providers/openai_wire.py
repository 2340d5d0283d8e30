"""OpenAI Chat Completions (and any compatible server through `base_url`). Imports the SDK only when used."""

from __future__ import annotations

from typing import Any, Iterator

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.providers import replies
from autoresearch.providers.errors import MalformedReply
from autoresearch.providers.replies import index, obj, seq, text, tokens
from autoresearch.providers.settings import ProviderSettings
from autoresearch.providers.turns import Tool, ToolCall, ToolResult, Turn

TOKEN_FIELDS = ("prompt_tokens", "completion_tokens")


def api_error() -> type[BaseException]:
    import openai

    return openai.APIError


def client(settings: ProviderSettings) -> Any:
    import openai

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return openai.OpenAI(
        api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0
    )


def send(
    sdk: Any,
    settings: ProviderSettings,
    system: str | None,
    messages: list[JSONObject],
    tools: list[Tool],
    timeout_s: float,
) -> tuple[Turn, JSONObject]:
    """One request, bounded by `timeout_s`; returns the neutral Turn and the assistant message to append to the history.

    Requests go through the SDK's generic `post` rather than `chat.completions.create`: the same
    client, auth, timeouts and error classes, without the typed layer's parameter transforms and
    response models, which cost ~40% of a request's CPU and bounded the eval runner's throughput
    (bench/eval_throughput.py). A stream's chunks are put together here (`_streamed`), each field
    checked, where the SDK's accumulating helper asserted on what it did not expect.
    """
    import openai

    head = [{"role": "system", "content": system}] if system else []
    body: JSONObject = {
        "model": settings.model,
        "messages": head + messages,
        _max_tokens_field(settings): settings.max_output_tokens,
    }
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    if tools:
        body["tools"] = [
            {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
            for t in tools
        ]
    if settings.stream:
        body["stream_options"] = {"include_usage": True}
        completion = _streamed(replies.events(sdk, openai.Stream[object], "/chat/completions", body, timeout_s))
    else:
        completion = replies.post(sdk, "/chat/completions", body, timeout_s)
    message = _checked(completion)
    return _turn(message, completion.get("usage") or {}), _assistant(message)


def _max_tokens_field(settings: ProviderSettings) -> str:
    """OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens."""
    return "max_tokens" if settings.base_url else "max_completion_tokens"


def _checked(completion: JSONObject) -> JSONObject:
    """The first choice's message, once every field the wire reads has its API type."""
    choices = seq(completion.get("choices"), "choices")
    if not choices:
        raise MalformedReply("malformed reply: `choices` is empty")
    message = obj(obj(choices[0], "choices.0").get("message"), "choices.0.message")
    text(message.get("content"), "choices.0.message.content", optional=True)
    for number, call in enumerate(seq(message.get("tool_calls") or [], "choices.0.message.tool_calls")):
        where = f"choices.0.message.tool_calls.{number}"
        text(obj(call, where).get("id"), f"{where}.id", optional=True)
        function = obj(call.get("function"), f"{where}.function")
        text(function.get("name"), f"{where}.function.name")
        text(function.get("arguments"), f"{where}.function.arguments", optional=True)
    if completion.get("usage") is not None:
        tokens(obj(completion["usage"], "usage"), TOKEN_FIELDS)
    return message


def _streamed(events: Iterator[JSONObject]) -> JSONObject:
    """The completion a stream's chunks spell out: the first choice's content and tool calls, its finish_reason,
    and the usage chunk. A stream with no finish_reason was cut short."""
    content: list[str] = []
    calls: dict[int, JSONObject] = {}
    finish, usage = None, None
    for chunk in events:
        if chunk.get("usage") is not None:
            usage = obj(chunk["usage"], "usage")
        for number, choice in enumerate(seq(chunk.get("choices") or [], "choices")):
            if obj(choice, f"choices.{number}").get("index", 0) != 0:
                continue  # n > 1 is never asked for
            delta = obj(choice.get("delta") or {}, "choices.0.delta")
            content.append(text(delta.get("content"), "choices.0.delta.content", optional=True) or "")
            for call in seq(delta.get("tool_calls") or [], "choices.0.delta.tool_calls"):
                _add_call_delta(calls, obj(call, "choices.0.delta.tool_calls.*"))
            finish = choice.get("finish_reason") or finish
    if finish is None:
        raise MalformedReply("the stream ended without a finish_reason (cut short)")
    message: JSONObject = {"role": "assistant", "content": "".join(content) or None}
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for _, c in sorted(calls.items())
        ]
    return {"choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}


def _add_call_delta(calls: dict[int, JSONObject], call: JSONObject) -> None:
    """A call's id and name come in its first chunk; its arguments, a JSON string, in pieces."""
    where = "choices.0.delta.tool_calls.*"
    slot = calls.setdefault(index(call.get("index"), f"{where}.index"), {"id": "", "name": "", "arguments": ""})
    function = obj(call.get("function") or {}, f"{where}.function")
    slot["id"] = slot["id"] or text(call.get("id"), f"{where}.id", optional=True) or ""
    slot["name"] = slot["name"] or text(function.get("name"), f"{where}.function.name", optional=True) or ""
    slot["arguments"] += text(function.get("arguments"), f"{where}.function.arguments", optional=True) or ""


def _calls(message: JSONObject) -> list[tuple[str, str, str | None]]:
    """(id, name, arguments text) of each tool call."""
    return [
        (call.get("id") or "", call["function"]["name"], call["function"].get("arguments"))
        for call in message.get("tool_calls") or []
    ]


def _turn(message: JSONObject, usage: JSONObject) -> Turn:
    calls = [ToolCall.from_json(*call) for call in _calls(message)]
    return Turn(
        message.get("content") or "", calls, usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0
    )


def _assistant(message: JSONObject) -> JSONObject:
    reply: JSONObject = {"role": "assistant", "content": message.get("content") or ""}
    calls = _calls(message)
    if calls:
        reply["tool_calls"] = [
            {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
            for id, name, arguments in calls
        ]
    return reply


def results(done: list[ToolResult]) -> list[JSONObject]:
    # Chat Completions has no error flag on a tool result; the text says it instead.
    return [
        {"role": "tool", "tool_call_id": r.call_id, "content": ("Error: " if r.is_error else "") + r.content}
        for r in done
    ]
