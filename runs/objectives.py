"""What a run measured besides its score: cost, latency, tokens, tool calls, robustness, per test and overall.

Read from the result rows only (index.jsonl), whichever evaluator wrote them:
`cost_usd`, `duration_ms`, `token_usage` ({input, output}), AgentV's trace
summary (`trace.event_count`, else the sum of `trace.tool_calls`), and
`samples` (a test's scores across repeats). A measurement a row does not
carry is absent, never 0: an eval that reports no cost has no cost objective.
"""

from __future__ import annotations

import math
from typing import TypeGuard

from autoresearch.runs.results import Row, mean_score

PASS_AT = 0.8  # AgentV's default pass threshold: a repeat at or above it passed


def per_test(rows: list[Row]) -> dict[str, dict[str, float]]:
    """{test id: {objective: value}} (last duplicate wins, as in compare)."""
    return {row["test_id"]: of_row(row) for row in rows}


def overall(rows: list[Row], size: int | None = None) -> dict[str, float]:
    """The run's objectives: correctness (the mean score), cost and tokens summed over the tests,
    latency p50 and p95 over the tests' durations (ms), tool calls summed, robustness the mean
    pass rate over the tests that repeated, and the artifact's size when given."""
    tests = per_test(rows)
    out: dict[str, float] = {"correctness": mean_score(rows)} if tests else {}
    for name in ("cost", "tokens", "tool_calls"):
        values = [m[name] for m in tests.values() if name in m]
        if values:
            out[name] = sum(values)
    durations = sorted(m["latency"] for m in tests.values() if "latency" in m)
    if durations:
        out["latency_p50"], out["latency_p95"] = percentile(durations, 0.5), percentile(durations, 0.95)
    rates = [m["robustness"] for m in tests.values() if "robustness" in m]
    if rates:
        out["robustness"] = sum(rates) / len(rates)
    if size is not None:
        out["size"] = float(size)
    return {name: round(value, 6) for name, value in out.items() if math.isfinite(value)}  # sums may overflow


def percentile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly between the nearest two (numpy's default)."""
    at = (len(ordered) - 1) * q
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def of_row(row: Row) -> dict[str, float]:
    """One test's objectives (all but `size`, which is the artifact's)."""
    out = {"correctness": float(row["score"])}
    samples = row.get("samples")
    samples = [s for s in samples if _number(s)] if isinstance(samples, list) else []
    runs = len(samples) if samples and samples != row.get("attempt_scores") else 1
    if _number(row.get("cost_usd")):
        out["cost"] = float(row["cost_usd"]) / runs  # merged repeats sum their costs: one run's share
    if _number(row.get("duration_ms")):
        out["latency"] = float(row["duration_ms"])
    tokens = _tokens(row.get("token_usage"))
    if tokens is not None:
        out["tokens"] = tokens
    calls = _tool_calls(row.get("trace"))
    if calls is not None:
        out["tool_calls"] = calls
    if len(samples) > 1:
        out["robustness"] = sum(s >= PASS_AT for s in samples) / len(samples)
    return out


def _tokens(usage: object) -> float | None:
    if not isinstance(usage, dict):
        return None
    counts = [usage.get(k) for k in ("input", "output")]
    numbers = [float(c) for c in counts if _number(c)]
    return sum(numbers) if numbers else None


def _tool_calls(trace: object) -> float | None:
    """AgentV's trace summary, in its snake_case (index.jsonl) or camelCase (older) spelling."""
    if not isinstance(trace, dict):
        return None
    count = trace.get("event_count", trace.get("eventCount"))
    if _number(count):
        return float(count)
    by_name = trace.get("tool_calls", trace.get("toolCalls"))
    if isinstance(by_name, dict):
        return float(sum(n for n in by_name.values() if _number(n)))
    return None


def _number(value: object) -> TypeGuard[int | float]:
    """A measurement: a number, not a boolean, not negative (AgentV drops negative costs and durations too)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
