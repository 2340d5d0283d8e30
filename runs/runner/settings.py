"""Which run settings apply: autoresearch's `eval.repeat`, `eval.budget_usd`, `eval.workers` (or
`--workers`) when set, else the eval file's own (`execution.trials`, `evaluate_options`,
`execution.budget_usd`), as AgentV's command-line flags beat the file.

- `eval.repeat` > 1 replaces every trial setting of the file (`execution.trials`,
  `evaluate_options.repeat`, a test's `options.repeat` / `run.repeat`): N
  parallel attempts combined by `eval.repeat_strategy`.
- `eval.budget_usd` > 0 replaces the file's budget: no test starts past it and
  the tests not started have no row. The file's budget, alone, is AgentV's:
  tests not started past it are `execution_error` rows ("Suite budget exceeded").
- `eval.workers` / `--workers` when given, else `evaluate_options.max_concurrency`, else 8.
- `eval.max_retries` (AgentV's `--max-retries`, default 2): a failed `cli` answer asked again.
"""

from __future__ import annotations

from autoresearch.runs.evalfile.model import Suite
from autoresearch.runs.runner.retry import DEFAULT_MAX_RETRIES
from autoresearch.runs.runner.run import RunOptions, Strategy

DEFAULT_WORKERS = 8


def run_options(
    suite: Suite,
    workers: int | None = None,
    repeat: int = 1,
    strategy: Strategy = "pass_any",
    budget_usd: float = 0.0,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> RunOptions:
    return RunOptions(
        workers=workers or suite.max_concurrency or DEFAULT_WORKERS,
        repeat=repeat,
        strategy=strategy,
        budget_usd=budget_usd,
        trials=suite.trials if repeat == 1 else None,
        suite_budget_usd=0.0 if budget_usd else (suite.budget_usd or 0.0),
        max_retries=max_retries,
    )


def overridden(suite: Suite, workers: int | None, repeat: int, budget_usd: float) -> list[str]:
    """One line for each setting of the eval file that autoresearch.yaml (or a flag) replaces."""
    lines = []
    if repeat > 1 and (suite.trials or any(case.trials for case in suite.cases)):
        lines.append(
            f"the file's trials / repeat are replaced by eval.repeat: {repeat} (eval.repeat_strategy combines them)"
        )
    if budget_usd and suite.budget_usd:
        lines.append(f"the file's budget_usd {suite.budget_usd:g} is replaced by eval.budget_usd: {budget_usd:g}")
    if workers and suite.max_concurrency:
        lines.append(f"evaluate_options.max_concurrency {suite.max_concurrency} is replaced by workers: {workers}")
    return lines
