"""The Anthropic Messages API: system apart, content blocks, `tool_use` / `tool_result`. Imports the SDK only when used."""

from __future__ import annotations

import json
from typing import Any, Iterator

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.providers import replies
from autoresearch.providers.errors import MalformedReply
from autoresearch.providers.replies import index, obj, seq, text, tokens
from autoresearch.providers.settings import ProviderSettings
from autoresearch.providers.turns import Tool, ToolCall, ToolResult, Turn

TOKEN_FIELDS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def api_error() -> type[BaseException]:
    import anthropic

    return anthropic.APIError


def client(settings: ProviderSettings) -> Any:
    import anthropic

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return anthropic.Anthropic(
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

    Both ways go through the SDK's generic `post` (see openai_wire.send for why); a
    stream's events are put together here (`_streamed`) so that every field is checked.
    """
    import anthropic

    body: JSONObject = {"model": settings.model, "max_tokens": settings.max_output_tokens, "messages": messages}
    if system:
        body["system"] = system
    if tools:
        body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    if settings.stream:
        message = _streamed(replies.events(sdk, anthropic.Stream[object], "/v1/messages", body, timeout_s))
    else:
        message = replies.post(sdk, "/v1/messages", body, timeout_s)
    _check(message)
    return _turn(message), _assistant(message)


def _check(message: JSONObject) -> None:
    """Every field the wire reads has its API type, or the reply is malformed."""
    for number, block in enumerate(seq(message.get("content"), "content")):
        where = f"content.{number}"
        kind = text(obj(block, where).get("type"), f"{where}.type")
        if kind == "text":
            text(block.get("text"), f"{where}.text")
        elif kind == "tool_use":
            text(block.get("id"), f"{where}.id")
            text(block.get("name"), f"{where}.name")
    if message.get("usage") is not None:  # the API always sends it; a compatible server may not
        tokens(obj(message["usage"], "usage"), TOKEN_FIELDS)


def _streamed(events: Iterator[JSONObject]) -> JSONObject:
    """The message a stream spells out: message_start, each block's start and deltas, message_delta, message_stop.
    A stream that ends before message_stop was cut short."""
    message: JSONObject | None = None
    blocks: dict[int, JSONObject] = {}
    partial_json: dict[int, str] = {}
    for event in events:
        kind = event.get("type")
        if kind == "message_start":
            message = dict(obj(event.get("message"), "message_start.message"))
        elif message is None:
            raise MalformedReply(f"the stream began with {kind!r}, not message_start")
        elif kind == "content_block_start":
            blocks[index(event.get("index"), "content_block_start.index")] = dict(
                obj(event.get("content_block"), "content_block_start.content_block")
            )
        elif kind == "content_block_delta":
            _add_delta(event, blocks, partial_json)
        elif kind == "message_delta":
            message["stop_reason"] = obj(event.get("delta"), "message_delta.delta").get("stop_reason")
            usage = obj(event.get("usage") or {}, "message_delta.usage")
            message["usage"] = {
                **obj(message.get("usage") or {}, "usage"),
                **{k: v for k, v in usage.items() if v is not None},
            }
        elif kind == "message_stop":
            message["content"] = [_finished(blocks[n], partial_json.get(n)) for n in sorted(blocks)]
            return message
    raise MalformedReply("the stream ended before message_stop (cut short)")


def _add_delta(event: JSONObject, blocks: dict[int, JSONObject], partial_json: dict[int, str]) -> None:
    number = index(event.get("index"), "content_block_delta.index")
    if number not in blocks:
        raise MalformedReply(f"the stream sent a delta for content block {number}, which never started")
    delta = obj(event.get("delta"), "content_block_delta.delta")
    if delta.get("type") == "text_delta":
        so_far = text(blocks[number].get("text") or "", f"content.{number}.text")
        blocks[number]["text"] = so_far + text(delta.get("text"), "text_delta.text")
    elif delta.get("type") == "input_json_delta":
        partial_json[number] = partial_json.get(number, "") + text(
            delta.get("partial_json"), "input_json_delta.partial_json"
        )


def _finished(block: JSONObject, partial_json: str | None) -> JSONObject:
    """A tool_use block's input is the JSON its deltas spelled; text that is not JSON is kept, and refused as the call's arguments."""
    if block.get("type") != "tool_use" or partial_json is None:
        return block
    try:
        return {**block, "input": json.loads(partial_json or "{}")}
    except (
        ValueError,
        RecursionError,
    ):  # RecursionError: nested thousands deep; ValueError: bad JSON, a 5,000-digit number
        return {**block, "input": partial_json}


def _blocks(message: JSONObject, kind: str | None = None) -> list[JSONObject]:
    blocks = message["content"]
    return [block for block in blocks if block["type"] == kind] if kind else blocks


def _turn(message: JSONObject) -> Turn:
    said = "".join(block["text"] for block in _blocks(message, "text"))
    calls = [_call(block) for block in _blocks(message, "tool_use")]
    usage = message.get("usage") or {}
    cached = (usage.get("cache_creation_input_tokens") or 0) + (usage.get("cache_read_input_tokens") or 0)
    return Turn(said, calls, (usage.get("input_tokens") or 0) + cached, usage.get("output_tokens") or 0)


def _call(block: JSONObject) -> ToolCall:
    id, name, arguments = block["id"], block["name"], block.get("input")
    if isinstance(arguments, dict):
        return ToolCall(id, name, arguments, arguments)
    return ToolCall(id, name, None, arguments, "arguments must be a JSON object")


def _assistant(message: JSONObject) -> JSONObject:
    content: list[JSONObject] = []
    for block in _blocks(message):  # in the model's order
        if block["type"] == "text" and block["text"]:
            content.append({"type": "text", "text": block["text"]})
        elif block["type"] == "tool_use":
            call = _call(block)
            content.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}})
    return {"role": "assistant", "content": content or [{"type": "text", "text": "(no reply)"}]}


def results(done: list[ToolResult]) -> list[JSONObject]:
    blocks = [
        {"type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error} for r in done
    ]
    return [{"role": "user", "content": blocks}]
