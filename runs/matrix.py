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

from autoresearch.runs.evalfile.model import Suite


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
    """The rows AgentV wrote for one eval file, with our ids when it ran on several targets (a matrix:
    one id per test, `target` apart): `test@target` for every row; otherwise the rows as they are."""
    if len({row.get("target") for row in rows}) < 2:
        return rows
    return [{**row, "test_id": f"{row['test_id']}@{row.get('target')}"} for row in rows]
