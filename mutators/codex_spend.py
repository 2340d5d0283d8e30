"""What a Codex CLI mutation spent, read from its `codex exec --json` events and priced with the shipped table.

Codex prices nothing itself. Each `turn.completed` event carries the turn's
token usage, as Codex 0.171 prints it:

    {"type":"turn.completed","usage":{"input_tokens":300,"cached_input_tokens":120,
     "cache_write_input_tokens":0,"output_tokens":60,"reasoning_output_tokens":15}}

(input counts the cached and cache-write tokens, output the reasoning ones,
summed over the turn's model calls). No event names the model, so the model is
the one the command line names (`-m`, `--model`, `-c model=`), else the one in
Codex's config.toml, else Codex's own default. The agent's last
`agent_message` is its reply: the summary when it wrote no changelog, rather
than the last line of raw JSON.
"""

from __future__ import annotations

import json
import shlex
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.providers.prices import cost_usd

DEFAULT_MODEL = "gpt-6.2-sol"  # what Codex 0.171 runs when nothing names a model
_MODEL_FLAGS = ("-m", "--model")
_CONFIG_FLAGS = ("-c", "--config")


@dataclass(frozen=True)
class CodexSpend:
    """One `codex exec --json` run's spend, priced, and its final message."""

    model: str
    cost_usd: float
    tokens_in: int
    tokens_out: int
    reply: str  # the last agent_message, "" when it said nothing


class _Usage(BaseModel):
    """A `turn.completed` event's `usage`; fields Codex may add later are ignored."""

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built when a Codex log is read

    input_tokens: int = Field(default=0, ge=0)
    cached_input_tokens: int = Field(default=0, ge=0)
    cache_write_input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)


def read(stdout: str, model: str, prices: dict[str, dict[str, float]] | None = None) -> CodexSpend | None:
    """The spend of the Codex run whose `--json` output is `stdout`, priced as `model` (`prices` first, then the
    shipped table); None when the output is not Codex's events (another command, or Codex without `--json`)."""
    events = list(_events(stdout))
    if not any(event.get("type") == "thread.started" for event in events):
        return None
    usages = [_usage(event) for event in events if event.get("type") == "turn.completed"]
    total = _Usage(
        input_tokens=sum(u.input_tokens for u in usages),
        cached_input_tokens=sum(u.cached_input_tokens for u in usages),
        cache_write_input_tokens=sum(u.cache_write_input_tokens for u in usages),
        output_tokens=sum(u.output_tokens for u in usages),
    )
    cost = cost_usd(
        model,
        total.input_tokens,
        total.output_tokens,
        prices,
        cached_tokens=total.cached_input_tokens,
        cache_write_tokens=total.cache_write_input_tokens,
    )
    return CodexSpend(model, cost, total.input_tokens, total.output_tokens, _last_reply(events))


def model_of(command: str, env: Mapping[str, str]) -> str:
    """The model a `codex exec` command line runs: its `-m`/`--model`/`-c model=`, else `model` in
    `$CODEX_HOME/config.toml` (default `~/.codex`), else Codex's default."""
    try:
        words = shlex.split(command)
    except ValueError:  # not one shell word list (an unbalanced quote): nothing to read in it
        words = []
    for flag, value in zip(words, words[1:]):
        if flag in _MODEL_FLAGS:
            return value
        if flag in _CONFIG_FLAGS and value.replace(" ", "").startswith("model="):
            return value.split("=", 1)[1].strip().strip("\"'")
    for word in words:
        if word.startswith("--model="):
            return word.removeprefix("--model=")
    return _configured_model(env) or DEFAULT_MODEL


def _configured_model(env: Mapping[str, str]) -> str | None:
    home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else Path(env.get("HOME", "~"), ".codex").expanduser()
    try:
        model = tomllib.loads((home / "config.toml").read_text(encoding="utf-8")).get("model")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return model if isinstance(model, str) and model else None


def _events(stdout: str) -> Iterator[JSONObject]:
    """The JSON objects of the output, one a line; anything else (a warning Codex printed) is passed over."""
    for line in jsonlines.lines(stdout):
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            yield event


def _usage(event: JSONObject) -> _Usage:
    try:
        return _Usage.model_validate(event.get("usage") or {})
    except ValidationError:  # a malformed count tells nothing: that turn counts as unknown, not as a crash
        return _Usage()


def _last_reply(events: list[JSONObject]) -> str:
    replies = [
        item["text"]
        for event in events
        if event.get("type") == "item.completed"
        and isinstance(item := event.get("item"), dict)
        and item.get("type") == "agent_message"
        and isinstance(item.get("text"), str)
        and item["text"].strip()
    ]
    return replies[-1] if replies else ""
