"""Objectives and promotion gates at the decision point.

`rescored` turns result rows into rows whose score is the composite of
`objectives:` (autoresearch.policies.objectives), so that every keep rule
decides on it unchanged; `gate` measures the candidate, checks `gates:`
(autoresearch.policies.gates) once the rule said KEEP, and writes both on the
cycle's iterations line.
"""

from __future__ import annotations

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_size
from autoresearch.policies import gates
from autoresearch.policies.objectives import OBJECTIVES, composite
from autoresearch.runs.objectives import PASS_AT, of_row, overall, per_test
from autoresearch.runs.results import assertion_rates, mean_score


def rescored(config: Config, head_rows: list[dict], rows: list[dict], sizes: tuple[int, int]) -> list[dict]:
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


def scored_pair(
    config: Config, ws: Workspace, head_rows: list[dict], rows: list[dict]
) -> tuple[list[dict], list[dict]]:
    """(HEAD's rows, the candidate's) as the keep rule sees them: by the composite when weights are set."""
    head_size, size = artifact_size(ws, "HEAD"), artifact_size(ws)
    return rescored(config, head_rows, head_rows, (head_size, head_size)), rescored(
        config, head_rows, rows, (head_size, size)
    )


def gate(config: Config, ws: Workspace, head_rows: list[dict], rows: list[dict], keep: bool, fields: dict) -> bool:
    """Whether the candidate is kept after the gates. Its objectives (and composite) go into `fields`,
    the iterations line in the making; a blocked KEEP becomes a drop whose reason names the gate."""
    head_score, cand_score = (mean_score(r) for r in scored_pair(config, ws, head_rows, rows))
    fields["objectives"] = overall(rows, artifact_size(ws))
    if config.objectives:
        fields["composite"] = round(cand_score, 6)
    limits = config.gates.limits()
    if not keep or not limits.any:
        return keep
    sign = -1.0 if config.eval.goal == "minimize" else 1.0
    head = _side(head_rows, overall(head_rows, artifact_size(ws, "HEAD")), sign * head_score)
    blocked = gates.check(limits, head, _side(rows, fields["objectives"], sign * cand_score), PASS_AT)
    if blocked is None:
        return True
    get().info("gate blocked", gate=blocked.gate, reason=blocked.reason)
    fields.update(gate=blocked.gate, reason=f"blocked by gate {blocked.gate}: {blocked.reason} ({fields['reason']})")
    return False


def _side(rows: list[dict], objectives: dict[str, float], score: float) -> gates.Side:
    tests = {row["test_id"]: float(row["score"]) for row in rows}
    return gates.Side(objectives, score, tests, assertion_rates(rows))


def unmeasured(config: Config, rows: list[dict]) -> list[str]:
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
