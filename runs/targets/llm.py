"""`anthropic` and `openai` targets (and LLM graders) through `mutators.providers`, which owns SDKs and retries."""

from __future__ import annotations

from typing import Any

from runs.evalfile.model import Case
from runs.graders.base import LLMReply
from runs.targets import Answer, TargetFailed
from runs.targets.specs import TargetSpec


class LLMTarget:
    def __init__(self, spec: TargetSpec):
        self.name, self.grader_target = spec.name, spec.grader_target
        self.spec = spec

    def answer(self, case: Case, attempt: int) -> Answer:
        messages = case.render_messages()
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system") or None
        reply = self.complete([m for m in messages if m["role"] != "system"], system)
        return Answer(reply.text, reply.input_tokens, reply.output_tokens, reply.cost_usd)

    def complete(self, prompt: str | list[dict[str, str]], system: str | None) -> LLMReply:
        from mutators.providers import complete
        from mutators.providers.errors import ProviderError

        try:
            reply = complete(settings(self.spec), prompt, system=system)
        except ProviderError as exc:
            raise TargetFailed(f"target {self.name}: {exc}") from None
        return LLMReply(reply.text, reply.input_tokens or 0, reply.output_tokens or 0, reply.cost_usd or 0.0)

    def grade(self, prompt: str, system: str | None) -> LLMReply:
        return self.complete(prompt, system)


def settings(spec: TargetSpec) -> Any:
    from mutators.providers import ProviderSettings

    opts = spec.options
    max_tokens = opts.get("max_output_tokens", opts.get("max_tokens"))
    extra = {"max_output_tokens": int(max_tokens)} if max_tokens else {}
    return ProviderSettings(
        provider=spec.provider,
        model=opts["model"],
        api_key_env=spec.api_key_env,
        base_url=opts.get("base_url") or opts.get("endpoint"),
        temperature=opts.get("temperature"),
        timeout_s=spec.timeout_s,
        **extra,
    )
