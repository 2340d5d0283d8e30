"""AgentV 5's `extensions:` lifecycle hooks, as its yaml-parser's parseExtensions reads them.

An entry is `file://PATH:HOOK` (a JavaScript module whose function named
after the hook is called with the hook's context), or `agentv:agent-rules`
(optionally `agentv:agent-rules:HOOK`, or a mapping with `id`, `hook` and the
`skills` / `hooks` / `agents` / `rules` paths it stages into the workspace).
HOOK is one of beforeAll, beforeEach, afterEach, afterAll (agent-rules
default: beforeAll). Their effect on a run is in `autoresearch.runs.workspace.extensions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoresearch.runs.evalfile.problems import Problems

HOOKS = ("beforeAll", "beforeEach", "afterEach", "afterAll")
AGENT_RULES = "agentv:agent-rules"
RULE_KINDS = ("skills", "hooks", "agents", "rules")


@dataclass(frozen=True)
class Extension:
    hook: str
    module: Path | None = None  # a file extension's module; None for agent-rules
    rules: dict[str, tuple[str, ...]] = field(default_factory=dict)  # agent-rules: the paths to stage, by kind


def parse(raw: Any, directory: Path, problems: Problems) -> tuple[Extension, ...]:
    """Every entry, or none when one is refused (its problem names it, as AgentV's throw names it)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.add(None, "extensions", "must be an array")
        return ()
    parsed = [_entry(entry, f"extensions[{i}]", directory, problems) for i, entry in enumerate(raw)]
    return tuple(e for e in parsed if e is not None)


def _entry(entry: Any, where: str, directory: Path, problems: Problems) -> Extension | None:
    if isinstance(entry, str):
        return _text(entry, where, directory, problems)
    if not isinstance(entry, dict):
        problems.add(None, where, "must be a string or object")
        return None
    if entry.get("id") != AGENT_RULES:
        problems.add(None, f"{where}.id", f"must be {AGENT_RULES}")
        return None
    hook = entry.get("hook", "beforeAll")
    if hook not in HOOKS:
        problems.add(None, f"{where}.hook", f"must be one of {', '.join(HOOKS)}")
        return None
    source = entry["config"] if isinstance(entry.get("config"), dict) else entry
    rules: dict[str, tuple[str, ...]] = {}
    for kind in RULE_KINDS:
        value = source.get(kind)
        if value is None:
            continue
        if not isinstance(value, (str, list)):
            problems.add(None, f"{where}.{kind}", "must be a string or string array")
            return None
        rules[kind] = (value,) if isinstance(value, str) else tuple(v for v in value if isinstance(v, str))
    return Extension(hook, rules=rules)


def _text(entry: str, where: str, directory: Path, problems: Problems) -> Extension | None:
    if entry == AGENT_RULES:
        return Extension("beforeAll")
    if entry.startswith(f"{AGENT_RULES}:"):
        hook = entry.removeprefix(f"{AGENT_RULES}:")
        if hook not in HOOKS:
            problems.add(None, where, f"must use one of {', '.join(HOOKS)}")
            return None
        return Extension(hook)
    if not entry.startswith("file://"):
        problems.add(None, where, f"must start with file:// or {AGENT_RULES}")
        return None
    module, _, hook = entry.removeprefix("file://").rpartition(":")
    if hook not in HOOKS or not module:
        problems.add(None, where, f"must be of the form file://path/to/hook.mjs:HOOK, HOOK one of {', '.join(HOOKS)}")
        return None
    path = (directory / module).resolve()
    if not path.is_file():
        problems.add(None, where, f"no such file {module} (under {directory})")
        return None
    return Extension(hook, module=path)
