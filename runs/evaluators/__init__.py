"""Evaluators: each runs one eval into a run directory and returns its result rows.

`build(config, repo_root)` picks the implementation from the config; the
registry is a plain dict so a new evaluator is one module and one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from runs.config import EvalConfig


@dataclass
class EvalOutcome:
    rows: list[dict]
    cost_usd: float = 0.0
    notes: dict = field(default_factory=dict)


class Evaluator(Protocol):
    def run(self, run_dir: Path) -> EvalOutcome:
        """Evaluate the working tree into `run_dir`; raise `EvalFailed` with the reason on failure."""
        ...

    def check(self) -> None:
        """Raise `RunsError` (exit 30) now if the eval cannot possibly run, before any cycle starts."""
        ...


def build(config: EvalConfig, repo_root: Path) -> Evaluator:
    from runs.evaluators.agentv import AgentVEvaluator
    from runs.evaluators.builtin import BuiltinEvaluator
    from runs.evaluators.command import CommandEvaluator, MetricEvaluator

    from runs.evaluators.repeated import RepeatedEvaluator

    if config.file:
        return BuiltinEvaluator(config, repo_root)  # repeats inside the run, combined by repeat_strategy
    if config.agentv:
        inner: Evaluator = AgentVEvaluator(config, repo_root)
    elif config.metric:
        inner = MetricEvaluator(config, repo_root)
    else:
        inner = CommandEvaluator(config, repo_root)
    return RepeatedEvaluator(inner, config.repeat) if config.repeat > 1 else inner
