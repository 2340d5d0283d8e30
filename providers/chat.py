"""A conversation with one model: single-turn `complete`, or multi-turn tool use through `Conversation`.

Each request goes through the retry table; each reply is priced from its usage.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, Protocol

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.providers import retry
from autoresearch.providers.errors import ProviderUnusable
from autoresearch.providers.prices import cost_usd
from autoresearch.providers.settings import PROVIDERS, ProviderSettings
from autoresearch.providers.turns import Reply, Tool, ToolResult, Turn


class Wire(Protocol):
    """What a wire module (`anthropic_wire`, `openai_wire`) gives: its SDK's client and error root, one request,
    and tool results in its API's shape."""

    def api_error(self) -> type[BaseException]: ...

    def client(self, settings: ProviderSettings) -> Any: ...

    def send(
        self,
        sdk: Any,
        settings: ProviderSettings,
        system: str | None,
        messages: list[JSONObject],
        tools: list[Tool],
        timeout_s: float,
    ) -> tuple[Turn, JSONObject]: ...

    def results(self, done: list[ToolResult]) -> list[JSONObject]: ...


def _wire(provider: str) -> Wire:
    if provider not in PROVIDERS:
        raise ProviderUnusable(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
    if provider == "anthropic":
        from autoresearch.providers import anthropic_wire

        return anthropic_wire
    from autoresearch.providers import openai_wire

    return openai_wire


_clients: dict[tuple[str, str, str | None, float], object] = {}
_clients_lock = threading.Lock()


def _client(wire: Wire, settings: ProviderSettings) -> object:
    """One SDK client per endpoint and key, shared by every conversation and thread: building one
    costs tens of milliseconds, which the eval runner would otherwise pay for every test."""
    key = (settings.provider, settings.api_key(), settings.base_url, settings.timeout_s)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = wire.client(settings)
        return _clients[key]


class Conversation:
    """The history of one tool-use conversation; `ask` sends it and appends the reply, `answer` adds tool results.

    `deadline` (a `time.monotonic()` value) bounds the whole conversation, retries included:
    past it, `ask` raises ProviderTimedOut.
    """

    def __init__(
        self,
        settings: ProviderSettings,
        prompt: str | list[JSONObject],
        *,
        system: str | None = None,
        tools: Sequence[Tool] = (),
        deadline: float | None = None,
    ):
        self.settings, self.deadline = settings, deadline
        self.tools = list(tools)
        self.wire = _wire(settings.provider)
        self.system, self.messages = _split_system(prompt, system)
        self.client = _client(self.wire, settings)
        self.input_tokens = self.output_tokens = 0
        self.cost_usd = 0.0

    def ask(self) -> Turn:
        """One model turn, retried per the table; raises ProviderUnusable / ProviderFailed (ProviderTimedOut)."""
        s = self.settings
        turn, assistant = retry.call(
            s,
            self.wire.api_error(),
            lambda timeout_s: self.wire.send(self.client, s, self.system, self.messages, self.tools, timeout_s),
            self.deadline,
        )
        turn.cost_usd = cost_usd(s.model, turn.input_tokens, turn.output_tokens, s.prices)
        self.messages.append(assistant)
        self.input_tokens += turn.input_tokens
        self.output_tokens += turn.output_tokens
        self.cost_usd += turn.cost_usd
        return turn

    def answer(self, results: list[ToolResult]) -> None:
        self.messages.extend(self.wire.results(results))


def _split_system(prompt: str | list[JSONObject], system: str | None) -> tuple[str | None, list[JSONObject]]:
    """System text apart (both APIs accept it so), user and assistant turns in order."""
    if isinstance(prompt, str):
        return system, [{"role": "user", "content": prompt}]
    systems = [system] if system else []
    systems += [m["content"] for m in prompt if m["role"] == "system"]
    turns = [{"role": m["role"], "content": m["content"]} for m in prompt if m["role"] != "system"]
    return "\n\n".join(systems) or None, turns


def complete(
    settings: ProviderSettings,
    prompt: str | list[JSONObject],
    *,
    system: str | None = None,
    timeout_s: float | None = None,
) -> Reply:
    """A single answer with no tools, retried per the table, all of it within `timeout_s` (see Conversation),
    counted from when the SDK's client is ready: the first call of a process imports the SDK, seconds on a
    loaded machine, which are not the model's time (a test's answer timed out before its request was sent)."""
    conversation = Conversation(settings, prompt, system=system)
    if timeout_s is not None:
        conversation.deadline = time.monotonic() + timeout_s
    turn = conversation.ask()
    return Reply(turn.text, turn.input_tokens, turn.output_tokens, turn.cost_usd)
