"""Graders on the run's measurements rather than its text: latency, cost, tokens, execution metrics.

As AgentV 4.42.4: the trace is the summary of the target's output messages
(`autoresearch.runs.graders.trace`; a target that reports no tool calls made none), a token
usage or cost the target did not report fails its check ("not available"), and
the duration is the one the target reported, else the one measured.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders import trace
from autoresearch.runs.graders.base import Context, Grader, Score, assertion, parsed
from autoresearch.runs.graders.options import Options
from autoresearch.runs.js import js_number


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
    max_tool_calls: float | None = None
    max_llm_calls: float | None = None
    max_tokens: float | None = None
    max_cost_usd: float | None = None
    max_duration_ms: float | None = None
    target_exploration_ratio: float | None = None
    exploration_tolerance: float = 0.2


class _Metric:
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type


def _all_or_nothing(checks: list[dict[str, Any]]) -> Score:
    return Score(1.0 if checks and all(c["passed"] for c in checks) else 0.0, checks)


class Latency(_Metric):
    options = LatencyOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        limit, duration = parsed(spec, self).threshold, ctx.duration_ms
        if duration is None:
            return Score(0.0, [assertion("No duration data available in trace", False)])
        return _all_or_nothing(
            [
                assertion(
                    f"Duration {js_number(duration)}ms {_cmp(duration, limit)} {js_number(limit)}ms threshold",
                    duration <= limit,
                )
            ]
        )


class Cost(_Metric):
    options = CostOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        budget, cost = parsed(spec, self).budget, ctx.reported_cost_usd
        if cost is None:
            return Score(0.0, [assertion("No cost data available in trace", False)])
        return _all_or_nothing(
            [assertion(f"Cost ${cost:.4f} {_cmp(cost, budget)} ${budget:.4f} budget", cost <= budget)]
        )


class TokenUsage(_Metric):
    options = TokenOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts, usage = parsed(spec, self), ctx.token_usage
        if usage is None:
            return Score(0.0, [assertion("No token usage data available in trace", False)])
        total = usage["input"] + usage["output"] + usage.get("cached", 0)  # AgentV counts cached tokens in the total
        checks = [
            assertion(f"{label} tokens {js_number(actual)} {_cmp(actual, limit)} {js_number(limit)}", actual <= limit)
            for label, actual, limit in (
                ("Input", usage["input"], opts.max_input),
                ("Output", usage["output"], opts.max_output),
                ("Total", total, opts.max_total),
            )
            if limit is not None
        ]
        return _all_or_nothing(checks)


class ExecutionMetrics(_Metric):
    options = ExecutionOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts, found = parsed(spec, self), trace.of(ctx)
        usage = ctx.token_usage
        measured = [
            _at_most("Tool calls", found["event_count"], opts.max_tool_calls),
            _at_most("LLM calls", found["llm_call_count"], opts.max_llm_calls),
            _at_most(
                "Total tokens",
                None if usage is None else usage["input"] + usage["output"],
                opts.max_tokens,
                "Token usage data",
            ),
            _at_most("Cost", ctx.reported_cost_usd, opts.max_cost_usd, "Cost data"),
            _at_most("Duration", ctx.duration_ms, opts.max_duration_ms, "Duration data", unit="ms"),
            _exploration(found, opts.target_exploration_ratio, opts.exploration_tolerance),
        ]
        checks = [c for c in measured if c is not None]
        passed = sum(1 for c in checks if c["passed"])
        return Score(passed / len(checks) if checks else 0.0, checks)


def _at_most(
    label: str, actual: float | None, limit: float | None, missing: str = "", unit: str = ""
) -> dict[str, Any] | None:
    if limit is None:
        return None
    if actual is None:
        return assertion(f"{missing} not available", False)
    if label == "Cost":
        return assertion(f"Cost ${actual:.4f} {_cmp(actual, limit)} ${limit:.4f} max", actual <= limit)
    return assertion(
        f"{label} {js_number(actual)}{unit} {_cmp(actual, limit)} {js_number(limit)}{unit} max", actual <= limit
    )


def _cmp(actual: float, limit: float) -> str:
    return "<=" if actual <= limit else ">"


def _exploration(found: dict[str, int], target: float | None, tolerance: float) -> dict[str, Any] | None:
    if target is None:
        return None
    ratio = trace.exploration_ratio(found)
    if ratio is None:
        return assertion("Exploration ratio not available (no tool calls)", False)
    within = abs(ratio - target) <= tolerance
    return assertion(
        f"Exploration ratio {ratio:.2f} {'within' if within else 'outside'} tolerance of target {js_number(target)}",
        within,
    )


GRADERS: dict[str, Grader] = {
    "latency": Latency(),
    "cost": Cost(),
    "token-usage": TokenUsage(),
    "execution-metrics": ExecutionMetrics(),
}
