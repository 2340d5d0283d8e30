"""LLM providers (Anthropic, OpenAI and OpenAI-compatible servers): clients, retries, prices, errors.

A layer below `runs` and `mutators`: it imports nothing of ours but `plumbing`, so the eval runner's
LLM targets and graders use it as the mutators do. SDKs are imported only when
a call is made, never when this package is imported.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what mypy reads for the names below, which run time loads on first use
    from autoresearch.providers.chat import Conversation as Conversation
    from autoresearch.providers.chat import complete as complete
    from autoresearch.providers.errors import ProviderError as ProviderError
    from autoresearch.providers.errors import ProviderFailed as ProviderFailed
    from autoresearch.providers.errors import ProviderTimedOut as ProviderTimedOut
    from autoresearch.providers.errors import ProviderUnusable as ProviderUnusable
    from autoresearch.providers.prices import cost_usd as cost_usd
    from autoresearch.providers.settings import DEFAULT_KEY_ENV as DEFAULT_KEY_ENV
    from autoresearch.providers.settings import PROVIDERS as PROVIDERS
    from autoresearch.providers.settings import ProviderSettings as ProviderSettings
    from autoresearch.providers.turns import Reply as Reply
    from autoresearch.providers.turns import Tool as Tool
    from autoresearch.providers.turns import ToolCall as ToolCall
    from autoresearch.providers.turns import ToolResult as ToolResult
    from autoresearch.providers.turns import Turn as Turn

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


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
