"""The LLM mutator: a tool-use conversation that is handed paths only and rewrites the artifact through the sandbox.

The first message is the mutator instructions with the paths filled in, so
its size does not depend on the eval's. The model reads results, history and
the artifact through the tools, writes the artifact, and ends by answering
without a tool call; that final text is the changelog.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from pathlib import Path

from autoresearch.mutators.base import MutationRequest, MutationResult, one_line
from autoresearch.mutators.config import LLMMutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutatorConfigError, MutatorUnusable
from autoresearch.mutators.instructions import render
from autoresearch.mutators.tools import SPECS, Sandbox, run
from autoresearch.plumbing import process
from autoresearch.plumbing.redact import redact, secret_values
from autoresearch.providers import (
    Conversation,
    ProviderFailed,
    ProviderSettings,
    ProviderUnusable,
    ToolCall,
    ToolResult,
)

log = logging.getLogger("autoresearch.mutator")
TOOLS_NOTE = """
## Your tools

You work through tools: list_dir, read_file (paged: offset/limit), search, git_show and
write_file. Paths are relative to the repository root. Everything in the repository but
.git and the experiment's hidden files can be read; only the artifact can be written.
Write whole files.

When the change is written, stop calling tools and reply with the changelog as plain text.
Its first line (or a line starting `Summary:`) is the one-line summary.
"""
MAX_CALLS_PER_TURN = 64
SUMMARY_LINE = re.compile(r"^\s*\**summary\**\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)


class LLMMutator:
    def __init__(self, config: LLMMutatorConfig):
        self.config = config

    def settings(self) -> ProviderSettings:
        c = self.config
        prices = c.price_table()
        return ProviderSettings(
            provider=c.provider,
            model=c.model,
            api_key_env=c.api_key_env,
            base_url=c.base_url,
            max_output_tokens=c.max_output_tokens,
            temperature=c.temperature,
            timeout_s=c.timeout_s,
            stream=c.stream,
            prices=prices or None,
            max_attempts=c.max_attempts,
            retry_base_s=c.retry_base_s,
        )

    def check(self) -> None:
        try:
            self.settings().api_key()
        except ProviderUnusable as exc:  # a missing key is a setup mistake, found before any cycle
            raise MutatorConfigError(f"{exc} (mutator.api_key_env)") from None

    def mutate(self, request: MutationRequest) -> MutationResult:
        box = Sandbox(request)
        transcript = Transcript(request.log_dir / "mutator-tools.jsonl")
        try:
            conversation = Conversation(
                self.settings(), render(request, changelog_by_reply=True) + TOOLS_NOTE, tools=SPECS
            )
        except ProviderUnusable as exc:
            raise MutatorUnusable(str(exc)) from None
        final = self._converse(conversation, box, transcript)
        spent = _spent(conversation, "")
        if not box.written:
            raise MutationFailed("the mutator model wrote nothing", "no-change", spent)
        request.changelog.parent.mkdir(parents=True, exist_ok=True)
        request.changelog.write_text(redact(final.strip()) + "\n", encoding="utf-8")  # it may quote a file it read
        return _spent(conversation, summary_of(final), written=box.written)

    def _converse(self, conversation: Conversation, box: Sandbox, transcript: Transcript) -> str:
        """Turns until the model answers without calling a tool; its text then is the changelog."""
        for _ in range(self.config.max_turns):
            if process.ending():  # an interrupted run waits for this thread: one request at most, not the rest
                raise MutationFailed("not finished: the run is ending", "interrupted", _spent(conversation, ""))
            try:
                turn = conversation.ask()
            except ProviderUnusable as exc:
                raise MutatorUnusable(str(exc)) from None
            except ProviderFailed as exc:
                raise MutationFailed(str(exc), "mutator-failed", _spent(conversation, "")) from None
            if not turn.tool_calls:
                return turn.text
            conversation.answer(
                [transcript.record(call, _run_one(box, call, number)) for number, call in enumerate(turn.tool_calls)]
            )
        message = f"the mutator model was still calling tools after {self.config.max_turns} turns (mutator.max_turns)"
        raise MutationFailed(message, "max-turns", _spent(conversation, ""))


def _run_one(box: Sandbox, call: ToolCall, number: int) -> ToolResult:
    """The call's result; past MAX_CALLS_PER_TURN in one reply, an error instead, so that a mutation's tool time
    stays bounded (each call is: see autoresearch.mutators.tools) while every call still gets the result the APIs require."""
    if number >= MAX_CALLS_PER_TURN:
        return ToolResult(call.id, f"not run: at most {MAX_CALLS_PER_TURN} tool calls are run per reply", is_error=True)
    return run(box, call)


class Transcript:
    """One JSON line per tool call in the candidate's run directory: what the model did, refusals included,
    with the environment's secret values masked (a file the model read may hold a key)."""

    def __init__(self, path: Path):
        self.path = path

    def record(self, call: ToolCall, result: ToolResult) -> ToolResult:
        secrets = secret_values()
        arguments = {k: _masked(v, secrets) for k, v in (call.arguments or {}).items() if k != "content"}
        if call.arguments and "content" in call.arguments:
            arguments["content_bytes"] = len(str(call.arguments["content"]).encode(errors="replace"))
        entry = {
            "time": time.time(),
            "tool": _masked(call.name, secrets),
            "arguments": arguments,
            "error": result.is_error,
        }
        entry["result" if not result.is_error else "refused"] = redact(result.content, secrets)[:300]
        if result.is_error:
            log.warning("mutator tool call refused: %s %s: %s", entry["tool"], json.dumps(arguments), entry["refused"])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")
        return result


def _masked(value: object, secrets: list[str]) -> object:
    """`value` (JSON from the model) with every secret in its strings masked."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, list):
        return [_masked(item, secrets) for item in value]
    if isinstance(value, dict):
        return {redact(str(k), secrets): _masked(v, secrets) for k, v in value.items()}
    return value


def summary_of(changelog: str) -> str:
    """A `Summary:` line if there is one, else the first non-empty line."""
    found = SUMMARY_LINE.search(changelog)
    if found:
        return one_line(found.group(1))
    lines = [line.lstrip("# ").strip() for line in changelog.splitlines() if line.strip()]
    return one_line(lines[0]) if lines else "(no summary)"


def _spent(conversation: Conversation, summary: str, written: Sequence[str] = ()) -> MutationResult:
    return MutationResult(
        summary,
        cost_usd=conversation.cost_usd,
        tokens_in=conversation.input_tokens,
        tokens_out=conversation.output_tokens,
        extra={"written": list(dict.fromkeys(written))} if written else {},
    )
