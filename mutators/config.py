"""The `mutator:` section of autoresearch.yaml, one model per provider."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autoresearch.plumbing.sourced import Sourced


class SandboxConfig(BaseModel):
    """Where the command mutator runs: in a throwaway checkout inside a kernel sandbox (bubblewrap), or not.

    Given as `auto`, `on` or `off`, or as a mapping with `mode` and what the sandbox shares."""

    model_config = ConfigDict(extra="forbid")

    mode: Literal["auto", "on", "off"] = "auto"
    """`auto`: sandboxed where bubblewrap works, else only the scope guard (said once at start); `on`: refuse to start without it; `off`: never (warned once per run)."""
    network: bool = True
    """Whether the mutator may use the network (coding-agent CLIs call their API)."""
    writable: list[str] = Field(default_factory=list)
    """Folders and files outside the checkout the mutator may change for real (`~` is the home folder; a relative path is taken from the config's folder). The coding agents' homes (`~/.claude`, `~/.claude.json`, `~/.codex`) need no entry, and listing one does not share it: the mutator gets throwaway copies of them, from which only a renewed login comes back."""

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: object) -> object:
        """`sandbox: off` (YAML reads on/off as booleans), `sandbox: auto`."""
        if isinstance(value, bool):
            return {"mode": "on" if value else "off"}
        return {"mode": value} if isinstance(value, str) else value


class ModelPrice(BaseModel):
    """What a model costs, in USD per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input_per_mtok: float = Field(ge=0)
    """USD per million input (prompt) tokens."""
    output_per_mtok: float = Field(ge=0)
    """USD per million output (completion) tokens."""


def price_table(prices: dict[str, ModelPrice]) -> dict[str, dict[str, float]]:
    """`prices` as providers takes it (plain dicts: that package imports nothing of ours)."""
    return {model: price.model_dump() for model, price in prices.items()}


class CommandMutatorConfig(Sourced):
    """Any program that edits files: a coding-agent CLI, a script."""

    model_config = ConfigDict(extra="forbid")

    provider: Literal["command"] = "command"
    command: str
    """Shell command run in the repository root (sandboxed: in a throwaway checkout of HEAD); sees AUTORESEARCH_* variables and {placeholders} of the same names in lower case. Its spend counts against stop.budget_usd when it reports it: Claude Code's `--output-format json`, or {"cost_usd": 0.42} written to $AUTORESEARCH_COST_FILE."""
    timeout_s: float = Field(default=1800, gt=0)
    """Seconds before the mutator is killed and the cycle counts as an error."""
    sandbox: SandboxConfig = Field(default_factory=SandboxConfig)
    """Whether it works in a throwaway checkout in a sandbox, from which only the artifact is taken back."""
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    """Prices of models missing from the shipped table, or overrides, for an agent whose token usage is priced here (Codex): {model: {input_per_mtok, output_per_mtok}}."""

    def price_table(self) -> dict[str, dict[str, float]]:
        return price_table(self.prices)

    def writable(self) -> tuple[Path, ...]:
        """`sandbox.writable` as paths, a relative one taken from the config's folder."""
        return tuple(self.beside(given) for given in self.sandbox.writable)


class ReplayMutatorConfig(Sourced):
    """Recorded edits applied in order, one per cycle: for demos and for re-running a past experiment."""

    model_config = ConfigDict(extra="forbid")

    provider: Literal["replay"] = "replay"
    file: str
    """A YAML list of edits, relative to the repository root: each `{summary, content}` (file artifact) or `{summary, files: {relative path: content file or null}}` (directory)."""


class LLMMutatorConfig(Sourced):
    """An LLM with file tools: it is given paths only, reads what it needs, and rewrites the artifact."""

    model_config = ConfigDict(extra="forbid")

    provider: Literal["anthropic", "openai"]
    """`anthropic` (Messages API) or `openai` (Chat Completions; with base_url, any compatible server)."""
    model: str = Field(min_length=1)
    """Any model name the provider accepts, e.g. claude-sonnet-4-5 or gpt-4.1."""
    api_key_env: str | None = None
    """Environment variable holding the API key (default ANTHROPIC_API_KEY / OPENAI_API_KEY); keys are never read from files."""
    base_url: str | None = None
    """Another endpoint: a proxy, or a local OpenAI-compatible server (vLLM, Ollama, LM Studio, OpenRouter)."""
    max_turns: int = Field(default=30, ge=1)
    """Model replies per mutation; each may call tools. A mutation still calling tools after this many is an error cycle."""
    max_output_tokens: int = Field(default=8000, ge=1)
    """Output token limit per model reply."""
    temperature: float | None = Field(default=None, ge=0)
    """Sampling temperature; unset leaves the provider's default (newer Anthropic models accept no other)."""
    timeout_s: float = Field(default=300, gt=0)
    """Seconds one request may take before it is retried."""
    stream: bool = False
    """Stream replies (server-sent events); some proxies need it for long replies."""
    max_attempts: int = Field(default=6, ge=1)
    """Tries per request when the provider answers 429, 5xx, times out or drops the connection."""
    retry_base_s: float = Field(default=1.0, ge=0)
    """First retry delay when the server gives no retry-after; doubles per retry (with jitter, at most 60 s)."""
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    """Prices of models missing from the shipped table, or overrides: {model: {input_per_mtok, output_per_mtok}}."""

    def price_table(self) -> dict[str, dict[str, float]]:
        return price_table(self.prices)


MutatorConfig = Annotated[
    Union[CommandMutatorConfig, ReplayMutatorConfig, LLMMutatorConfig], Field(discriminator="provider")
]
