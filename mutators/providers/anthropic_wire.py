"""The Anthropic Messages API: system apart, content blocks, `tool_use` / `tool_result`. Imports the SDK only when used."""

from __future__ import annotations

from typing import Any

from mutators.providers.settings import ProviderSettings
from mutators.providers.turns import Tool, ToolCall, ToolResult, Turn, reply_object


def api_error() -> type[BaseException]:
    import anthropic

    return anthropic.APIError


def client(settings: ProviderSettings) -> Any:
    import anthropic

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return anthropic.Anthropic(
        api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0
    )


def send(sdk: Any, settings: ProviderSettings, system: str | None, messages: list[dict], tools: list[Tool], timeout_s: float):
    """One request, bounded by `timeout_s`; returns the neutral Turn and the assistant message to append to the history.

    A plain request is the SDK's generic `post` rather than `messages.create`, a stream its
    accumulating helper read back as the same JSON: see openai_wire.send for why.
    """
    body: dict[str, Any] = {"model": settings.model, "max_tokens": settings.max_output_tokens, "messages": messages}
    if system:
        body["system"] = system
    if tools:
        body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
    sampling = {"temperature": settings.temperature} if settings.temperature is not None else None
    if settings.stream:
        # SDK 1.0 dropped sampling parameters from the typed signature; the API still takes them on models that allow them.
        with sdk.messages.stream(**body, extra_body=sampling, timeout=timeout_s) as stream:
            message = stream.get_final_message().model_dump(mode="json")
    else:
        answer = sdk.post("/v1/messages", body={**body, **(sampling or {})}, cast_to=object, options={"timeout": timeout_s})
        message = reply_object(answer, "anthropic")
    return _turn(message), _assistant(message)


def _blocks(message: dict, kind: str | None = None) -> list[dict]:
    blocks = [block for block in message.get("content") or [] if isinstance(block, dict)]
    return [block for block in blocks if block.get("type") == kind] if kind else blocks


def _turn(message: dict) -> Turn:
    text = "".join(block.get("text") or "" for block in _blocks(message, "text"))
    calls = [_call(block) for block in _blocks(message, "tool_use")]
    usage = message.get("usage") or {}
    cached = (usage.get("cache_creation_input_tokens") or 0) + (usage.get("cache_read_input_tokens") or 0)
    return Turn(text, calls, (usage.get("input_tokens") or 0) + cached, usage.get("output_tokens") or 0)


def _call(block: dict) -> ToolCall:
    id, name, arguments = block.get("id") or "", block.get("name") or "", block.get("input")
    if isinstance(arguments, dict):
        return ToolCall(id, name, arguments, arguments)
    return ToolCall(id, name, None, arguments, "arguments must be a JSON object")


def _assistant(message: dict) -> dict:
    content: list[dict] = []
    for block in _blocks(message):  # in the model's order
        if block.get("type") == "text" and block.get("text"):
            content.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "tool_use":
            call = _call(block)
            content.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments or {}})
    return {"role": "assistant", "content": content or [{"type": "text", "text": "(no reply)"}]}


def results(done: list[ToolResult]) -> list[dict]:
    blocks = [{"type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error} for r in done]
    return [{"role": "user", "content": blocks}]
