"""Test dependencies (`depends_on`), as AgentV 4.42.4 orders them: checked, then run in waves.

Every id a test depends on must be a test of the run, not itself, and the
graph must have no cycle (each is an error naming the test, or the cycle).
Tests then run in waves (Kahn's order): a wave starts when every test of the
one before has finished, so a test sees how its dependencies ended.
"""

from __future__ import annotations

from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.evalfile.problems import Problems


def check(cases: list[Case], problems: Problems) -> None:
    ids = {case.id for case in cases}
    for case in cases:
        for dep in case.depends_on:
            if dep == case.id:
                problems.add(case.id, "depends_on", "a test cannot depend on itself")
            elif dep not in ids:
                problems.add(case.id, "depends_on", f"no test with id {dep!r} in this run")
    cycle = _cycle(cases)
    if cycle:
        problems.add(cycle[0], "depends_on", "circular dependency: " + " -> ".join(cycle))


def _cycle(cases: list[Case]) -> list[str]:
    """The first cycle found by a depth-first walk in file order (AgentV's), or []."""
    deps = {case.id: [d for d in case.depends_on if d != case.id] for case in cases}
    done: set[str] = set()
    for start in deps:
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(deps.get(start, [])))]
        if start in done:
            continue
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return [*path[path.index(child) :], child]
            elif child not in done and child in deps:
                stack.append((child, iter(deps[child])))
                path.append(child)
                on_path.add(child)
    return []


def waves(cases: list[Case]) -> list[list[Case]]:
    """The cases in waves: those with no dependency first, then those whose dependencies all came before.

    A matrix run's copies depend on the copies of the same target (`row_id`)."""
    if not any(case.depends_on for case in cases):
        return [list(cases)]
    waiting = {case.row_id: len(case.depends_on) for case in cases}
    dependents: dict[str, list[Case]] = {}
    for case in cases:
        for dep in case.depends_on:
            dependents.setdefault(dep_row_id(case, dep), []).append(case)
    ready = [case for case in cases if not case.depends_on]
    found = []
    while ready:
        found.append(ready)
        following = []
        for case in ready:
            for dependent in dependents.get(case.row_id, []):
                waiting[dependent.row_id] -= 1
                if waiting[dependent.row_id] == 0:
                    following.append(dependent)
        ready = following
    placed = {case.row_id for wave in found for case in wave}
    left = [case for case in cases if case.row_id not in placed]  # a dependency with no copy for this target
    return found + ([left] if left else [])


def dep_row_id(case: Case, dep: str) -> str:
    """The row id of a dependency as this test sees it: the same target's copy in a matrix run."""
    return f"{dep}@{case.matrix_target}" if case.matrix_target else dep
