"""Graders on the run's measurements rather than its text: latency, cost, tokens, execution metrics.

The built-in runner records no tool-call trace, so checks that need one
(`max_tool_calls`, `max_llm_calls`, `target_exploration_ratio`) fail with
"No trace summary available", exactly as AgentV scores a target without a trace.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from runs.evalfile.model import GraderSpec
from runs.graders.base import Context, Options, Score, assertion, parsed


class LatencyOptions(Options):
    threshold: float = Field(ge=0)
    """Maximum duration in milliseconds."""


class CostOptions(Options):
    budget: float = Field(ge=0)
    """Maximum cost in USD."""


class TokenOptions(Options):
    max_total: int | None = None
    max_input: int | None = None
    max_output: int | None = None


class ExecutionOptions(Options):
    max_tool_calls: int | None = None
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    max_duration_ms: float | None = None
    target_exploration_ratio: float | None = None
    exploration_tolerance: float = 0.2


class _Metric:
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type


def _all_or_nothing(checks: list[dict]) -> Score:
    return Score(1.0 if checks and all(c["passed"] for c in checks) else 0.0, checks)


class Latency(_Metric):
    options = LatencyOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        limit = parsed(spec, self).threshold
        return _all_or_nothing([assertion(f"Duration {ctx.duration_ms:.0f}ms <= {limit:g}ms", ctx.duration_ms <= limit)])


class Cost(_Metric):
    options = CostOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        budget = parsed(spec, self).budget
        return _all_or_nothing([assertion(f"Cost ${ctx.cost_usd:.4f} <= ${budget:.4f}", ctx.cost_usd <= budget)])


class TokenUsage(_Metric):
    options = TokenOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        checks = [
            assertion(f"{label} tokens {actual} <= {limit}", actual <= limit)
            for label, actual, limit in (
                ("Total", ctx.total_tokens, opts.max_total),
                ("Input", ctx.input_tokens, opts.max_input),
                ("Output", ctx.output_tokens, opts.max_output),
            )
            if limit is not None
        ]
        return _all_or_nothing(checks)


class ExecutionMetrics(_Metric):
    options = ExecutionOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        if opts.max_tool_calls is not None or opts.max_llm_calls is not None or opts.target_exploration_ratio is not None:
            return Score(0.0, [assertion("No trace summary available", False)])
        checks = [
            assertion(f"{label} {actual:g} <= {limit:g} max", actual <= limit)
            for label, actual, limit in (
                ("Total tokens", ctx.total_tokens, opts.max_tokens),
                ("Cost $", ctx.cost_usd, opts.max_cost_usd),
                ("Duration ms", ctx.duration_ms, opts.max_duration_ms),
            )
            if limit is not None
        ]
        passed = sum(1 for c in checks if c["passed"])
        return Score(passed / len(checks) if checks else 0.0, checks)


GRADERS = {
    "latency": Latency(),
    "cost": Cost(),
    "token-usage": TokenUsage(),
    "execution-metrics": ExecutionMetrics(),
}
