"""`execution.targets`: every test on each of several targets in one run (AgentV's matrix mode).

Each test gets one copy per target it runs on (all the suite's targets, or
those of its own `execution.targets` among them, as AgentV filters them),
and each copy's result row has the id `test@target`, so comparing two runs
pairs a test on one target only with the same test on the same target: the
keep rules, `compare` and `agentv compare` then compare like with like. A
chosen target (`--target`, `eval.target`) replaces the matrix: every test
runs on it alone, with plain ids; a one-target list is that target.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from runs.evalfile.model import Suite


def expand(suite: Suite, chosen: str | None) -> None:
    if chosen or not suite.targets:
        return
    if len(suite.targets) == 1:
        suite.target = suite.targets[0]
        return
    suite.cases = [
        replace(case, target=name, matrix_target=name)
        for name in suite.targets
        for case in suite.cases
        if not case.targets or name in case.targets
    ]


def keyed_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows AgentV wrote for a matrix run (one id per test, `target` apart) with our ids: `test@target`
    for every row of an eval file that ran on several targets; other rows as they are."""
    targets: dict[Any, set] = {}
    for row in rows:
        targets.setdefault(_source(row), set()).add(row.get("target"))
    return [{**row, "test_id": f"{row['test_id']}@{row.get('target')}"} if len(targets[_source(row)]) > 1 else row for row in rows]


def _source(row: dict[str, Any]) -> Any:
    """The eval file a row came from: AgentV names it in `projection_identity.dimensions.eval_path`
    (several files may share a suite name); the suite name for rows without it."""
    identity = row.get("projection_identity")
    dimensions = identity.get("dimensions") if isinstance(identity, dict) else None
    path = dimensions.get("eval_path") if isinstance(dimensions, dict) else None
    return ("file", path) if isinstance(path, str) else ("suite", row.get("suite"))
