"""OpenAI Chat Completions (and any compatible server through `base_url`). Imports the SDK only when used."""

from __future__ import annotations

from typing import Any

from mutators.providers.settings import ProviderSettings
from mutators.providers.turns import Tool, ToolCall, ToolResult, Turn, reply_object


def api_error() -> type[BaseException]:
    import openai

    return openai.APIError


def client(settings: ProviderSettings) -> Any:
    import openai

    # max_retries=0: retries happen in retry.call, by our table, so they are bounded and logged in one place.
    return openai.OpenAI(api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0)


def send(sdk: Any, settings: ProviderSettings, system: str | None, messages: list[dict], tools: list[Tool], timeout_s: float):
    """One request, bounded by `timeout_s`; returns the neutral Turn and the assistant message to append to the history.

    A plain request is the SDK's generic `post` rather than `chat.completions.create`: the same
    client, auth, timeouts and error classes, without the typed layer's parameter transforms and
    response models, which cost ~40% of a request's CPU and bounded the eval runner's throughput
    (bench/eval_throughput.py). A stream goes through the SDK's accumulating helper, read back as
    the same JSON.
    """
    head = [{"role": "system", "content": system}] if system else []
    kwargs: dict[str, Any] = {"model": settings.model, "messages": head + messages, _max_tokens_field(settings): settings.max_output_tokens}
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    if tools:
        kwargs["tools"] = [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}} for t in tools]
    if settings.stream:
        with sdk.chat.completions.stream(**kwargs, stream_options={"include_usage": True}, timeout=timeout_s) as stream:
            completion = stream.get_final_completion().model_dump(mode="json")
    else:
        completion = reply_object(sdk.post("/chat/completions", body=kwargs, cast_to=object, options={"timeout": timeout_s}), "openai")
    return _turn(completion), _assistant(completion)


def _max_tokens_field(settings: ProviderSettings) -> str:
    """OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens."""
    return "max_tokens" if settings.base_url else "max_completion_tokens"


def _message(completion: dict) -> dict:
    choices = completion.get("choices") or [{}]
    return choices[0].get("message") or {}


def _calls(message: dict) -> list[tuple[str, str, str | None]]:
    """(id, name, arguments text) of each tool call."""
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        calls.append((call.get("id") or "", function.get("name") or "", function.get("arguments")))
    return calls


def _turn(completion: dict) -> Turn:
    message, usage = _message(completion), completion.get("usage") or {}
    calls = [ToolCall.from_json(*call) for call in _calls(message)]
    return Turn(message.get("content") or "", calls, usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0)


def _assistant(completion: dict) -> dict:
    message = _message(completion)
    reply: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    calls = _calls(message)
    if calls:
        reply["tool_calls"] = [
            {"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}
            for id, name, arguments in calls
        ]
    return reply


def results(done: list[ToolResult]) -> list[dict]:
    # Chat Completions has no error flag on a tool result; the text says it instead.
    return [{"role": "tool", "tool_call_id": r.call_id, "content": ("Error: " if r.is_error else "") + r.content} for r in done]
