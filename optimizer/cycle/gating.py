"""Objectives and promotion gates at the decision point.

`rescored` turns result rows into rows whose score is the composite of
`objectives:` (autoresearch.policies.objectives), so that every keep rule
decides on it unchanged; `blocked_by` checks `gates:` (autoresearch.policies.gates)
once the rule said KEEP (autoresearch.optimizer.cycle.verdict puts both on the line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_size
from autoresearch.policies import gates
from autoresearch.policies.gates import Blocked
from autoresearch.policies.objectives import OBJECTIVES, composite
from autoresearch.runs.objectives import PASS_AT, of_row, overall, per_test
from autoresearch.runs.results import assertion_rates, mean_score

Row = dict[str, Any]  # a result row as the evaluators write it: a JSON object (the edge where JSON comes in)
Rows = list[Row]


def rescored(config: Config, head_rows: Rows, rows: Rows, sizes: tuple[int, int]) -> Rows:
    """`rows` scored by the composite, each test's objectives normalised against HEAD's same test
    (`rows` as they are without weights). `sizes` are HEAD's artifact size and that of `rows`'s artifact."""
    if not config.objectives:
        return rows
    head = per_test(head_rows)
    head_size, size = ({"size": float(n)} for n in sizes)
    return [
        {
            **row,
            "score": composite(
                config.objectives, {**of_row(row), **size}, {**head.get(row["test_id"], {}), **head_size}
            ),
        }
        for row in rows
    ]


@dataclass(frozen=True)
class Sizes:
    """HEAD's artifact size and the candidate's (lines of a file, bytes of a directory, a tree walk): measured
    once per candidate, before its evaluation, and handed to everything that weighs it."""

    head: int
    candidate: int

    @classmethod
    def of(cls, ws: Workspace, data: bytes | None = None) -> Sizes:
        """`data`: a file artifact's bytes, when the caller has read them (`artifact_bytes`)."""
        return cls(artifact_size(ws, "HEAD"), artifact_size(ws, data=data))

    @property
    def simpler(self) -> bool:
        return self.candidate < self.head


def scored_pair(config: Config, sizes: Sizes, head_rows: Rows, rows: Rows) -> tuple[Rows, Rows]:
    """(HEAD's rows, the candidate's) as the keep rule sees them: by the composite when weights are set."""
    return rescored(config, head_rows, head_rows, (sizes.head, sizes.head)), rescored(
        config, head_rows, rows, (sizes.head, sizes.candidate)
    )


def blocked_by(
    config: Config, head: tuple[Rows, int, Rows], cand: tuple[Rows, dict[str, float], Rows]
) -> Blocked | None:
    """The gate that blocks a candidate the rule kept, or None. HEAD's side is (its rows, its artifact's size, its
    rows as the rule scored them), the candidate's (its rows, its objectives, its rows as the rule scored them):
    HEAD's objectives are worked out only when a gate is set (most runs set none, and a KEEP is half the cycles)."""
    limits = config.gates.limits()
    if not limits.any:
        return None
    sign = -1.0 if config.eval.goal == "minimize" else 1.0
    head_rows, head_size, head_scored = head
    sides = [
        _side(rows, objectives, sign * mean_score(scored))
        for rows, objectives, scored in ((head_rows, overall(head_rows, head_size), head_scored), cand)
    ]
    blocked = gates.check(limits, sides[0], sides[1], PASS_AT)
    if blocked is not None:
        get().info("gate blocked", gate=blocked.gate, reason=blocked.reason)
    return blocked


def _side(rows: Rows, objectives: dict[str, float], score: float) -> gates.Side:
    tests = {row["test_id"]: float(row["score"]) for row in rows}
    return gates.Side(objectives, score, tests, assertion_rates(rows))


def unmeasured(config: Config, rows: Rows) -> list[str]:
    """The config's weights and gates on objectives these rows (HEAD's) never report, as `field (objective)`."""
    if not rows:
        return []
    measured = set().union(*(of_row(row) for row in rows)) | {"size"}
    asks: list[tuple[str, str]] = [(f"objectives.{name}", name) for name in config.objectives if name in OBJECTIVES]
    g = config.gates
    asks += [(f"gates.{field}", name) for field, name in _GATE_OBJECTIVES.items() if getattr(g, field) is not None]
    missing = [f"{field} ({name})" for field, name in asks if name not in measured]
    names = {row["test_id"] for row in rows} | set(assertion_rates(rows))
    missing += [f"gates.must_pass ({name!r})" for name in g.must_pass if name not in names]
    return missing


_GATE_OBJECTIVES = {"max_cost_increase": "cost", "latency_p95_max_ms": "latency"}  # gate -> the objective it reads
