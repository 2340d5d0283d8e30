"""Trials: one test attempted several times in a row and scored once, as AgentV does.

`execution.trials` is AgentV 4.42.4's (orchestrator `runEvalCaseWithTrials`,
`trials.ts`): `pass_at_k` stops at the first passing trial and scores the
best, `mean` the mean, `confidence_interval` the lower bound of the 95%
t-interval. `evaluate_options.repeat` is the Experiments page's (AgentV 5's
source): `pass_any` scores the best, `pass_all` the worst, and they stop
early only with `early_exit: true`. Either stops once the test's target has
cost `cost_limit_usd`. The row is the best trial's (the first of equal
best), with the combined score; its status is `ok` when any trial was ok,
`execution_error` when every trial was one, `quality_failure` otherwise.
"""

from __future__ import annotations

import math
from typing import Callable

from autoresearch.runs.evalfile.model import Trials
from autoresearch.runs.graders.scoring import DEFAULT_THRESHOLD
from autoresearch.runs.runner.case import TestResult

T_TABLE_95 = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.16,
    2.145,
    2.131,
    2.12,
    2.11,
    2.101,
    2.093,
    2.086,
    2.08,
    2.074,
    2.069,
    2.064,
    2.06,
    2.056,
    2.052,
    2.048,
    2.045,
)
STRATEGIES = ("pass_at_k", "mean", "confidence_interval", "pass_any", "pass_all")


def run_trials(trials: Trials, attempt: Callable[[], TestResult]) -> TestResult:
    """Run `attempt` up to `trials.count` times, one after another, and combine the results."""
    results: list[TestResult] = []
    spent, limited = 0.0, False
    while len(results) < trials.count:
        result = attempt()
        results.append(result)
        spent += result.target_cost_usd  # AgentV counts what the target reported, not the graders
        if trials.cost_limit_usd and spent >= trials.cost_limit_usd:
            limited = True
            break
        if _stops_early(trials, result):
            break
    return combine_trials(results, trials, limited)


def _stops_early(trials: Trials, result: TestResult) -> bool:
    """4.42.4's pass_at_k judges a trial at 0.8 whatever the test's threshold; AgentV 5's repeat by its status."""
    if trials.strategy == "pass_at_k":
        return result.score >= DEFAULT_THRESHOLD
    passed = result.status == "ok"
    if trials.strategy == "pass_any":
        return trials.early_exit and passed
    if trials.strategy == "pass_all":
        return trials.early_exit and not passed
    return False


def combine_trials(results: list[TestResult], trials: Trials, cost_limited: bool = False) -> TestResult:
    scores = [r.score for r in results]
    best = max(range(len(results)), key=lambda i: (scores[i], -i))  # the first of equal best, as AgentV's reduce
    chosen = results[best]
    chosen.score = aggregate(scores, trials.strategy)
    statuses = [r.status for r in results]
    if "ok" in statuses:
        chosen.status = "ok"
    elif all(s == "execution_error" for s in statuses):
        chosen.status = "execution_error"
    else:
        chosen.status = "quality_failure"
    if chosen.status != "execution_error":
        chosen.error = None
    chosen.attempt_scores = scores
    chosen.cost_usd = sum(r.cost_usd for r in results)
    chosen.target_cost_usd = sum(r.target_cost_usd for r in results)
    chosen.trials = [
        {"attempt": i, "score": r.score, "execution_status": r.status, "cost_usd": r.cost_usd}
        for i, r in enumerate(results)
    ]
    chosen.cost_limited = cost_limited
    return chosen


def aggregate(scores: list[float], strategy: str) -> float:
    if strategy in ("pass_at_k", "pass_any"):
        return max(scores)
    if strategy == "pass_all":
        return min(scores)
    mean = sum(scores) / len(scores)
    if strategy == "mean" or len(scores) < 2:
        return mean
    stddev = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
    df = len(scores) - 1
    t = 1.96 if df >= 30 else T_TABLE_95[df - 1]
    return max(0.0, min(1.0, mean - t * stddev / math.sqrt(len(scores))))
