"""Evaluators by the kind of eval the config names: a new evaluator is one module and one line in `EVALUATORS`.

Each evaluator's module is imported when the config chooses it: the built-in runner (its eval-file models,
graders and targets) costs a third of a second to import, which a run of an eval command never needs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.evaluators.command import CommandEvaluator, MetricEvaluator
from autoresearch.runs.evaluators.repeated import RepeatedEvaluator
from autoresearch.runs.executors import Executor

if TYPE_CHECKING:
    from autoresearch.runs.evaluators.builtin import BuiltinEvaluator
    from autoresearch.runs.runner.filerefs import Unread

EvalKind = Literal["file", "agentv", "metric", "command"]


def _builtin(config: EvalConfig, repo_root: Path, executor: Executor | None = None) -> Evaluator:
    from autoresearch.runs.evaluators.builtin import BuiltinEvaluator

    return BuiltinEvaluator(config, repo_root, executor)


def _agentv(config: EvalConfig, repo_root: Path) -> Evaluator:
    from autoresearch.runs.evaluators.agentv import AgentVEvaluator

    return AgentVEvaluator(config, repo_root)


EVALUATORS: dict[EvalKind, Callable[[EvalConfig, Path], Evaluator]] = {
    "file": _builtin,  # repeats inside the run, combined by repeat_strategy
    "agentv": _agentv,
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
        evaluator: Evaluator = _builtin(config, repo_root, executor)
    elif executor is not None and kind == "command":
        evaluator = CommandEvaluator(config, repo_root, executor)
    else:
        evaluator = EVALUATORS[kind](config, repo_root)
    return RepeatedEvaluator(evaluator, config.repeat) if kind != "file" and config.repeat > 1 else evaluator


def builtin_runner(evaluator: Evaluator) -> BuiltinEvaluator | None:
    """`evaluator` if it is the built-in runner, else None: told without importing the runner, since an
    evaluator made before its module was ever imported cannot be one."""
    module = sys.modules.get("autoresearch.runs.evaluators.builtin")
    if module is not None and isinstance(evaluator, module.BuiltinEvaluator):
        return cast("BuiltinEvaluator", evaluator)
    return None


def unread_files(evaluator: Evaluator) -> list[Unread]:
    """The `cli` targets whose command never reads the files their prompt names by path: only the built-in
    runner knows what its targets are sent."""
    runner = builtin_runner(evaluator)
    return runner.unread_files() if runner is not None else []
