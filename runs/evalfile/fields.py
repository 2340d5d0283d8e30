"""Which fields of AgentV's eval format we read, which we ignore as AgentV does, and which cannot run here.

One that cannot run here is an error naming it, so nobody believes a
workspace or a hook ran when it did not. Everything else AgentV ignores
(fields it keeps only as metadata, and fields it does not know: `agentv
validate` warns "This field will be ignored") is ignored the same way, with
a note that `validate` prints, so a typo is still seen.
"""

from __future__ import annotations

from typing import Any

from autoresearch.runs.evalfile.problems import Problems

METADATA = "kept by AgentV as metadata only; nothing is scored on it"
SUITE = {
    "name",
    "description",
    "execution",
    "input",
    "input_files",
    "assertions",
    "assert",
    "tests",
    "eval_cases",
    "evalcases",
    "metadata",
    "imports",
    "target",
    "threshold",
    "workspace",
    "evaluate_options",
    "extensions",
    "timeout_seconds",
}
SUITE_IGNORED = {
    "version": METADATA,
    "tags": METADATA,
    "governance": METADATA,
    "author": METADATA,
    "license": METADATA,
    "requires": METADATA,
    "category": METADATA,
    "defaults": "not an AgentV field it reads (a place for YAML anchors); ignored as AgentV ignores it",
    "preprocessors": "preprocessors convert files a target writes; the built-in runner's targets answer in text, which is graded as is",
    "$schema": "an editor hint",
}
SUITE_UNSUPPORTED = {
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
EXECUTION = {"target", "threshold", "skip_defaults", "trials", "targets", "budget_usd"}
EXECUTION_IGNORED = {
    "workers": "how many tests run at once; set eval.workers or --workers (scores do not depend on it)",
    "cache": "AgentV's response cache; every test runs",
    "fail_on_error": "AgentV's exit code rule; the run's rows are the same",
}
EXECUTION_UNSUPPORTED: dict[str, str] = {}
TEST = {
    "id",
    "input",
    "input_files",
    "expected_output",
    "criteria",
    "expected_outcome",
    "assertions",
    "assert",
    "rubrics",
    "metadata",
    "execution",
    "description",
    "files",
    "vars",
    "workspace",
    "mode",
    "turns",
    "aggregation",
    "on_turn_failure",
    "window_size",
    "depends_on",
    "on_dependency_failure",
    "options",
    "run",
}
TEST_IGNORED = {
    "conversation_id": METADATA,
    "tags": METADATA,
}
TEST_UNSUPPORTED = {
    "repos": "repositories",
    "hooks": "hooks",
    "conversation": "multi-turn conversations",
    "setup": "hooks",
    "teardown": "hooks",
}
TEST_EXECUTION = {"target", "skip_defaults", "targets", "threshold"}


def check_fields(
    raw: dict[str, Any],
    known: set[str],
    unsupported: dict[str, str],
    problems: Problems,
    test_id: str | None,
    prefix: str = "",
    ignored: dict[str, str] | None = None,
) -> None:
    """Report every key of `raw` that is unsupported (with what it is); note every ignored or unknown one."""
    ignored = ignored or {}
    for key in raw:
        name = f"{prefix}{key}"
        if key in unsupported:
            problems.add(
                test_id,
                name,
                f"unsupported by the built-in runner ({unsupported[key]}); use eval.agentv to run it with AgentV",
            )
        elif key in ignored:
            problems.note(test_id, name, f"ignored: {ignored[key]}")
        elif key not in known:
            problems.note(
                test_id,
                name,
                f"unknown field, ignored as AgentV ignores it (known: {', '.join(sorted(known | ignored.keys()))})",
            )


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
