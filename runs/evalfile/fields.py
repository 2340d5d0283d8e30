"""Which fields of AgentV's eval format we read, and which we know but do not support.

A field that is neither is a typo; one that is known but unsupported is named
as such, so nobody believes a workspace or a hook ran when it did not.
"""

from __future__ import annotations

from typing import Any

from runs.evalfile.problems import Problems

SUITE = {"name", "description", "execution", "input", "assertions", "tests", "metadata", "version", "tags"}
SUITE_UNSUPPORTED = {
    "workspace": "workspaces",
    "workspaces": "workspaces",
    "repos": "repositories",
    "hooks": "hooks",
    "before_all": "hooks",
    "after_all": "hooks",
    "before_each": "hooks",
    "after_each": "hooks",
    "environment": "environments",
    "conversation": "multi-turn conversations",
    "evaluators": "the old `evaluators` key (rename it to `assertions`)",
}
EXECUTION = {"target", "threshold"}
EXECUTION_UNSUPPORTED = {
    "targets": "several targets per run (pick one with --target)",
    "workers": "execution.workers (set eval.workers or --workers)",
    "cache": "the response cache",
    "trials": "trials (set eval.repeat)",
}
TEST = {"id", "input", "expected_output", "criteria", "assertions", "metadata", "execution", "description", "files"}
TEST_UNSUPPORTED = {
    "workspace": "workspaces",
    "repos": "repositories",
    "hooks": "hooks",
    "conversation": "multi-turn conversations",
    "conversation_id": "multi-turn conversations",
    "turns": "multi-turn conversations",
    "tool_trajectory": "multi-turn tool trajectories",
    "expected_tool_calls": "multi-turn tool trajectories",
    "setup": "hooks",
    "teardown": "hooks",
}
TEST_EXECUTION = {"target"}


def check_fields(
    raw: dict[str, Any],
    known: set[str],
    unsupported: dict[str, str],
    problems: Problems,
    test_id: str | None,
    prefix: str = "",
) -> None:
    """Report every key of `raw` that is unsupported (with what it is) or unknown."""
    for key in raw:
        name = f"{prefix}{key}"
        if key in unsupported:
            problems.add(test_id, name, f"unsupported by the built-in runner ({unsupported[key]}); use eval.agentv to run it with AgentV")
        elif key not in known:
            problems.add(test_id, name, f"unknown field (expected one of: {', '.join(sorted(known))})")


def text(raw: dict[str, Any], key: str, problems: Problems, test_id: str | None, field: str) -> str | None:
    """`raw[key]` when it is a string; None when it is absent, or after reporting a value of another kind."""
    value = raw.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.add(test_id, field, f"must be a string, not {value!r}")
    return None


def mapping(raw: dict[str, Any], key: str, problems: Problems, test_id: str | None, field: str) -> dict[str, Any]:
    """`raw[key]` when it is a mapping; {} when it is absent, or after reporting a value of another kind."""
    value = raw.get(key)
    if value is None or isinstance(value, dict):
        return value or {}
    problems.add(test_id, field, f"must be a mapping, not {value!r}")
    return {}
