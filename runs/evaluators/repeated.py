"""`eval.repeat: N` for evaluators that run a command: N invocations, one sub-directory each.

The built-in runner repeats inside one run (attempts combined by
`repeat_strategy`); every other evaluator is wrapped here instead, so the
same setting means "N samples per test" everywhere.
"""

from __future__ import annotations

from pathlib import Path

from autoresearch.runs.evaluators import EvalOutcome, Evaluator
from autoresearch.runs.samples import merge, sample_dir, write_index


class RepeatedEvaluator:
    def __init__(self, inner: Evaluator, repeat: int):
        self.inner, self.repeat = inner, repeat

    def check(self) -> None:
        self.inner.check()

    def run(self, run_dir: Path) -> EvalOutcome:
        """Run the inner eval into sample-1/ … sample-N/, then write the merged index.jsonl."""
        outcomes = []
        for n in range(1, self.repeat + 1):
            path = sample_dir(run_dir, n)
            path.mkdir(parents=True, exist_ok=True)
            outcomes.append(self.inner.run(path))
        rows = merge([o.rows for o in outcomes])
        write_index(run_dir, rows)
        return EvalOutcome(rows, sum(o.cost_usd for o in outcomes), {"samples": self.repeat})
