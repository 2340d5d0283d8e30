"""Evaluators: each runs one eval into a run directory and returns its result rows.

`autoresearch.runs.evaluators.registry.build(config, repo_root)` picks the implementation
from the config; the registry is a plain dict so a new evaluator is one module
and one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, TypeGuard

from autoresearch.runs.results import Row


@dataclass
class EvalOutcome:
    rows: list[Row]
    cost_usd: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)


class Evaluator(Protocol):
    def run(self, run_dir: Path) -> EvalOutcome:
        """Evaluate the working tree into `run_dir`; raise `EvalFailed` with the reason on failure."""
        ...

    def check(self) -> None:
        """Raise `RunsError` (exit 30) now if the eval cannot possibly run, before any cycle starts."""
        ...


Watch = Callable[[Row], bool]  # sees each row as it is written; True stops the run


class WatchingEvaluator(Evaluator, Protocol):
    """An evaluator that streams its rows, so a caller can stop it early (see `supports_watch`)."""

    def run(self, run_dir: Path, watch: Watch | None = None) -> EvalOutcome: ...


def supports_watch(evaluator: Evaluator) -> TypeGuard[WatchingEvaluator]:
    """Whether the evaluator takes a `watch`: a capability it declares with its `supports_watch` attribute."""
    return bool(getattr(evaluator, "supports_watch", False))
