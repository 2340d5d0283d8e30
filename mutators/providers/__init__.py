"""LLM providers (Anthropic, OpenAI and OpenAI-compatible servers): clients, retries, prices, errors.

A leaf package: it imports nothing else of the project, so the eval runner's
LLM targets and graders use it as the mutators do. SDKs are imported only when
a call is made, never when this package is imported.
"""

from mutators.providers.chat import Conversation, complete
from mutators.providers.errors import ProviderError, ProviderFailed, ProviderUnusable
from mutators.providers.prices import cost_usd
from mutators.providers.settings import DEFAULT_KEY_ENV, PROVIDERS, ProviderSettings
from mutators.providers.turns import Reply, Tool, ToolCall, ToolResult, Turn

__all__ = [
    "DEFAULT_KEY_ENV", "PROVIDERS", "Conversation", "ProviderError", "ProviderFailed", "ProviderSettings",
    "ProviderUnusable", "Reply", "Tool", "ToolCall", "ToolResult", "Turn", "complete", "cost_usd",
]
