"""What `autoresearch eval` answers: one typed report, printed as text or (`--json`) as one JSON object.

The control API runs the command with `--json` and reads this model back, so it gets the answer from the
command's machine-readable channel and still shows the same text a terminal would.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from autoresearch.plumbing.text import inert
from autoresearch.trajectory.goal import better


class EvalReport(BaseModel):
    """The README's `eval --json` schema, field for field."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built when `eval` reports

    kind: Literal["metric", "score"]  # the eval's own number, or a 0-1 score
    score: float
    goal: Literal["maximize", "minimize"]
    tests: int
    cost_usd: float
    assertions: dict[str, float]  # grader name -> mean score; empty for a metric
    results: str  # the run directory

    def text(self) -> str:
        """The report as `eval` prints it without `--json`. A metric is its own number (val_bpb 1.16, lower is
        better), never a 0-1 score or a pass rate."""
        if self.kind == "metric":
            head = f"metric {self.score:.6g} ({better(self.goal)}), cost ${self.cost_usd:.4f}"
        else:
            head = f"score {self.score:.4f} over {self.tests} test(s), cost ${self.cost_usd:.4f}"
        rates = [f"  {rate:6.1%}  {inert(name)}" for name, rate in self.assertions.items()]  # names an eval gave
        return "\n".join([head, *rates, f"results: {self.results}"])
