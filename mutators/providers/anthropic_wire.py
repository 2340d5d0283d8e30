"""The Anthropic Messages API: system apart, content blocks, `tool_use` / `tool_result`. Imports the SDK only when used."""

from __future__ import annotations

from typing import Any

from mutators.providers.settings import ProviderSettings
from mutators.providers.turns import Tool, ToolCall, ToolResult, Turn


def api_error() -> type[BaseException]:
    import anthropic

    return anthropic.APIError


def client(settings: ProviderSettings) -> Any:
    import anthropic

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return anthropic.Anthropic(
        api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0
    )


def send(sdk: Any, settings: ProviderSettings, system: str | None, messages: list[dict], tools: list[Tool]):
    """One request; returns the neutral Turn and the assistant message to append to the history."""
    kwargs: dict[str, Any] = {"model": settings.model, "max_tokens": settings.max_output_tokens, "messages": messages}
    if system:
        kwargs["system"] = system
    if settings.temperature is not None:
        # SDK 1.0 dropped sampling parameters from the signature; the API still takes them on models that allow them.
        kwargs["extra_body"] = {"temperature": settings.temperature}
    if tools:
        kwargs["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
    if settings.stream:
        with sdk.messages.stream(**kwargs) as stream:
            message = stream.get_final_message()
    else:
        message = sdk.messages.create(**kwargs)
    return _turn(message), _assistant(message)


def _turn(message: Any) -> Turn:
    text = "".join(block.text for block in message.content if block.type == "text")
    calls = [_call(block) for block in message.content if block.type == "tool_use"]
    usage = message.usage
    cached = (usage.cache_creation_input_tokens or 0) + (usage.cache_read_input_tokens or 0)
    return Turn(text, calls, usage.input_tokens + cached, usage.output_tokens)


def _call(block: Any) -> ToolCall:
    if isinstance(block.input, dict):
        return ToolCall(block.id, block.name, block.input, block.input)
    return ToolCall(block.id, block.name, None, block.input, "arguments must be a JSON object")


def _assistant(message: Any) -> dict:
    content: list[dict] = []
    for block in message.content:
        if block.type == "text" and block.text:
            content.append({"type": "text", "text": block.text})
        elif block.type == "tool_use":
            raw = block.input if isinstance(block.input, dict) else {}
            content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": raw})
    return {"role": "assistant", "content": content or [{"type": "text", "text": "(no reply)"}]}


def results(done: list[ToolResult]) -> list[dict]:
    blocks = [{"type": "tool_result", "tool_use_id": r.call_id, "content": r.content, "is_error": r.is_error} for r in done]
    return [{"role": "user", "content": blocks}]
