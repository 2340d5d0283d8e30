"""`anthropic` and `openai` targets (and LLM graders) through `providers`, which owns SDKs and retries.

`timeout_seconds` bounds one call to the target as a whole, as it bounds a
command target's process: the request and its retries (no retry starts past
it, and each request's SDK timeout is at most what is left). A test's answer
is one call; each request of an LLM grader is one call to the grader target,
bounded by that target's own `timeout_seconds` and not counted in the test's
(AgentV bounds the target's answer, not its grading).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from autoresearch.providers.errors import ProviderError, ProviderTimedOut
from autoresearch.providers.turns import Reply
from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.evalfile.prompt import DEFAULT_SYSTEM_PROMPT, chat_prompt
from autoresearch.runs.grader_llm import GraderFailed
from autoresearch.runs.targets import Answer, TargetFailed
from autoresearch.runs.targets.prices import table_for
from autoresearch.runs.targets.specs import TargetSpec


class LLMTarget:
    prompt_mode: Literal["agent", "lm"] = "lm"  # AgentV gives an LLM file contents in <file> tags

    def __init__(self, spec: TargetSpec, eval_dir: Path):
        self.name, self.grader_target = spec.name, spec.grader_target
        self.spec, self.eval_dir, self.provider = spec, eval_dir, spec.provider

    def answer(self, case: Case, attempt: int, cwd: Path | None = None) -> Answer:
        """The input as AgentV sends it to an LLM (a workspace `cwd` means nothing to it): its chat prompt, without the test's `files` (AgentV sends those
        nowhere) unless the target sets `attach_files: true` (ours), which appends their contents to the last user turn."""
        prompt = chat_prompt(case, self.eval_dir, attach_files=bool(self.spec.options.get("attach_files")))
        return self._chat(prompt.messages, prompt.system, case.timeout_s)

    def converse(self, history: list[dict[str, str]], turn_id: str) -> Answer:
        """One turn of a conversation, as AgentV's LLM providers send its history: the system turns joined as the
        system prompt (AgentV's default when there are none), the user and assistant turns in order."""
        system = "\n\n".join(m["content"] for m in history if m["role"] == "system")
        return self._chat(
            [m for m in history if m["role"] != "system"],
            system if any(m["role"] == "system" for m in history) else DEFAULT_SYSTEM_PROMPT,
        )

    def _chat(self, messages: list[dict[str, str]], system: str, timeout_s: float | None = None) -> Answer:
        """One call; `timeout_s` is a test's own bound on its answer (`run: {timeout_seconds}`), else the target's."""
        try:
            reply = self._complete(messages, system, timeout_s)
        except ProviderError as exc:
            raise TargetFailed(self._failure("target", exc, timeout_s)) from None
        # AgentV's LLM providers: one assistant message, token usage always, a cost only when above 0
        return Answer(
            reply.text,
            reply.input_tokens,
            reply.output_tokens,
            reply.cost_usd,
            messages=({"role": "assistant", "content": reply.text},),
            token_usage={"input": reply.input_tokens, "output": reply.output_tokens},
            reported_cost_usd=reply.cost_usd or None,
        )

    def grade(self, prompt: str, system: str | None) -> Reply:
        """The runner's GraderLLM: a provider fault is the grader's failure (the test's execution_error), not the run's."""
        try:
            return self._complete(prompt, system)
        except ProviderError as exc:
            raise GraderFailed(self._failure("grader", exc)) from None

    def _complete(
        self, prompt: str | list[dict[str, str]], system: str | None, timeout_s: float | None = None
    ) -> Reply:
        """One call, bounded by `timeout_s` (a test's own, for an answer) or the target's timeout_seconds."""
        from autoresearch.providers import complete

        reply = complete(settings(self.spec), prompt, system=system, timeout_s=timeout_s or self.spec.timeout_s)
        return Reply(reply.text, reply.input_tokens or 0, reply.output_tokens or 0, reply.cost_usd or 0.0)

    def _failure(self, role: str, exc: ProviderError, timeout_s: float | None = None) -> str:
        if isinstance(exc, ProviderTimedOut):
            return f"{role} {self.name} timed out after {timeout_s or self.spec.timeout_s:g}s ({exc})"
        return f"{role} {self.name}: {exc}"


def settings(spec: TargetSpec) -> Any:
    from autoresearch.providers import ProviderSettings

    opts = spec.options
    max_tokens = opts.get("max_output_tokens", opts.get("max_tokens"))
    extra: dict[str, Any] = {"max_output_tokens": int(max_tokens)} if max_tokens else {}
    return ProviderSettings(
        provider=spec.provider,
        model=opts["model"],
        api_key_env=spec.api_key_env,
        base_url=opts.get("base_url") or opts.get("endpoint"),
        temperature=opts.get("temperature"),
        timeout_s=spec.timeout_s,
        prices=table_for(spec),
        **extra,
    )
