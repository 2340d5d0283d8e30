"""LLM providers (Anthropic, OpenAI and OpenAI-compatible servers): clients, retries, prices, errors.

A layer below `runs` and `mutators`: it imports nothing of ours but `plumbing`, so the eval runner's
LLM targets and graders use it as the mutators do. SDKs are imported only when
a call is made, never when this package is imported.
"""

from importlib import import_module

# Names are loaded on first use (PEP 562): importing `autoresearch.providers.errors` (the runner and the mutators do)
# must not load the clients, retries and prices, which would cost the CLI some 40 ms of start-up.
_HOMES = {
    "Conversation": "chat",
    "complete": "chat",
    "ProviderError": "errors",
    "ProviderFailed": "errors",
    "ProviderTimedOut": "errors",
    "ProviderUnusable": "errors",
    "cost_usd": "prices",
    "DEFAULT_KEY_ENV": "settings",
    "PROVIDERS": "settings",
    "ProviderSettings": "settings",
    "Reply": "turns",
    "Tool": "turns",
    "ToolCall": "turns",
    "ToolResult": "turns",
    "Turn": "turns",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
