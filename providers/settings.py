"""How to reach one model: provider, model, key variable, endpoint, limits and retry bounds."""

from __future__ import annotations

import os
from dataclasses import dataclass

from autoresearch.providers.errors import ProviderUnusable

PROVIDERS = ("anthropic", "openai")
DEFAULT_KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


@dataclass(frozen=True)
class ProviderSettings:
    provider: str  # "anthropic" | "openai"
    model: str
    api_key_env: str | None = None  # None -> ANTHROPIC_API_KEY / OPENAI_API_KEY
    base_url: str | None = None
    max_output_tokens: int = 8000
    temperature: float | None = None
    timeout_s: float = 300.0  # one request's SDK timeout; a call's deadline (retry.call) may cut it shorter
    stream: bool = False
    prices: dict[str, dict[str, float]] | None = None  # overrides of the shipped table
    max_attempts: int = 6  # tries per call, the first included
    retry_base_s: float = 1.0  # first backoff delay; doubles per retry, with jitter
    retry_budget_s: float = 300.0  # no retry starts after this long spent on one call

    @property
    def key_env(self) -> str:
        return self.api_key_env or DEFAULT_KEY_ENV[self.provider]

    def api_key(self) -> str:
        """The key from the environment (never from a file), or a ProviderUnusable that says which variable to set.

        A local OpenAI-compatible server usually needs no key: with a `base_url`
        and no variable set, a placeholder is sent.
        """
        key = os.environ.get(self.key_env)
        if key:
            return key
        if self.base_url and self.api_key_env is None:
            return "none"
        raise ProviderUnusable(f"No key found: set {self.key_env}")
