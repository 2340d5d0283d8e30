"""Which eval files are AgentV 5.x's, decided from the parsed YAML alone: a 4.x file is read without loading the
5.x translator (`agentv5`), its graders and its environments."""

from __future__ import annotations

import re
from typing import Any

V5_ONLY = {
    "prompts",
    "default_test",
    "environment",
    "scenarios",
    "graders",
    "derived_metrics",
    "nunjucks_filters",
    "output_path",
    "env",
    "experiment",
    "targets",
}
"""Top-level fields AgentV 4.42.4 does not read and 5.x introduced: any of them makes a file a 5.x file."""
MAJOR = re.compile(r"(\d+)")
V5_GRADERS = {"llm-rubric", "script", "script-grader", "assert-set", "skill-used"}


def is_v5(raw: Any) -> bool:
    """Whether a parsed eval file is AgentV 5.x's: an explicit `requires.agentv` major wins, else any 5.x-only field."""
    if not isinstance(raw, dict):
        return False
    requires = raw.get("requires")
    wanted = requires.get("agentv") if isinstance(requires, dict) else None
    major = MAJOR.search(wanted) if isinstance(wanted, str) else None
    if major:
        return int(major.group(1)) >= 5
    lists = [raw.get("assert"), *(t.get("assert") for t in list_or_none(raw.get("tests")) if isinstance(t, dict))]
    return bool(V5_ONLY & raw.keys()) or any(
        _v5_grader(g) for graders in lists if isinstance(graders, list) for g in graders
    )


def list_or_none(raw: Any) -> list[Any]:
    return raw if isinstance(raw, list) else []


def _v5_grader(raw: Any) -> bool:
    """A grader type only AgentV 5 has (4.42.4 would refuse it as unknown)."""
    kind = raw.get("type") if isinstance(raw, dict) else None
    return isinstance(kind, str) and (kind.startswith(("not-", "trajectory:")) or kind in V5_GRADERS)
