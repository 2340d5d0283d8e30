"""OpenAI Chat Completions (and any compatible server through `base_url`). Imports the SDK only when used."""

from __future__ import annotations

from typing import Any

from mutators.providers.settings import ProviderSettings
from mutators.providers.turns import Tool, ToolCall, ToolResult, Turn


def api_error() -> type[BaseException]:
    import openai

    return openai.APIError


def client(settings: ProviderSettings) -> Any:
    import openai

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return openai.OpenAI(api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0)


def send(sdk: Any, settings: ProviderSettings, system: str | None, messages: list[dict], tools: list[Tool]):
    """One request; returns the neutral Turn and the assistant message to append to the history."""
    head = [{"role": "system", "content": system}] if system else []
    kwargs: dict[str, Any] = {"model": settings.model, "messages": head + messages, _max_tokens_field(settings): settings.max_output_tokens}
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    if tools:
        kwargs["tools"] = [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}} for t in tools]
    if settings.stream:
        with sdk.chat.completions.stream(**kwargs, stream_options={"include_usage": True}) as stream:
            completion = stream.get_final_completion()
    else:
        completion = sdk.chat.completions.create(**kwargs)
    return _turn(completion), _assistant(completion)


def _max_tokens_field(settings: ProviderSettings) -> str:
    """OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens."""
    return "max_tokens" if settings.base_url else "max_completion_tokens"


def _turn(completion: Any) -> Turn:
    message = completion.choices[0].message if completion.choices else None
    calls = [ToolCall.from_json(c.id, c.function.name, c.function.arguments) for c in (message and message.tool_calls) or []]
    usage = completion.usage
    return Turn((message and message.content) or "", calls, usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)


def _assistant(completion: Any) -> dict:
    message = completion.choices[0].message if completion.choices else None
    reply: dict[str, Any] = {"role": "assistant", "content": (message and message.content) or ""}
    calls = (message and message.tool_calls) or []
    if calls:
        reply["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in calls
        ]
    return reply


def results(done: list[ToolResult]) -> list[dict]:
    # Chat Completions has no error flag on a tool result; the text says it instead.
    return [{"role": "tool", "tool_call_id": r.call_id, "content": ("Error: " if r.is_error else "") + r.content} for r in done]
