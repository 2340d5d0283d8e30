"""Evaluators by the kind of eval the config names: a new evaluator is one module and one line in `EVALUATORS`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.evaluators.agentv import AgentVEvaluator
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator
from autoresearch.runs.evaluators.command import CommandEvaluator, MetricEvaluator
from autoresearch.runs.evaluators.repeated import RepeatedEvaluator
from autoresearch.runs.executors import Executor
from autoresearch.runs.runner.filerefs import Unread

EvalKind = Literal["file", "agentv", "metric", "command"]

EVALUATORS: dict[EvalKind, Callable[[EvalConfig, Path], Evaluator]] = {
    "file": BuiltinEvaluator,  # repeats inside the run, combined by repeat_strategy
    "agentv": AgentVEvaluator,
    "metric": MetricEvaluator,
    "command": CommandEvaluator,
}


def kind_of(config: EvalConfig) -> EvalKind:
    if config.file:
        return "file"
    if config.agentv:
        return "agentv"
    return "metric" if config.metric else "command"


def build(config: EvalConfig, repo_root: Path, executor: Executor | None = None) -> Evaluator:
    """The evaluator; with an executor, the built-in runner's attempts and the eval command's runs go through
    it (an AgentV or metric eval runs here)."""
    kind = kind_of(config)
    if executor is not None and kind == "file":
        evaluator: Evaluator = BuiltinEvaluator(config, repo_root, executor)
    elif executor is not None and kind == "command":
        evaluator = CommandEvaluator(config, repo_root, executor)
    else:
        evaluator = EVALUATORS[kind](config, repo_root)
    return RepeatedEvaluator(evaluator, config.repeat) if kind != "file" and config.repeat > 1 else evaluator


def unread_files(evaluator: Evaluator) -> list[Unread]:
    """The `cli` targets whose command never reads the files their prompt names by path: only the built-in
    runner knows what its targets are sent."""
    return evaluator.unread_files() if isinstance(evaluator, BuiltinEvaluator) else []
