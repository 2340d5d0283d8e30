"""AgentV 5's `skill-used` / `not-skill-used`, as its graders/skill-used.ts grades them.

AgentV 5 grades the skill calls a provider reports, not the tool calls: a
`cli` or LLM target reports none (so `skill-used` fails there and
`not-skill-used` passes), a `replay` target those its recorded messages
show (providers/skill-calls.ts: a `Skill` call's `skill` or `name`, a
`Read` of `skills/<name>/SKILL.md`, such a path in a `Bash` command or in
a call's output; calls with an error status left out). The value is a
name, a list of names (each must be used), or `{name|pattern, min, max}`
(a count); the `not-` form, or `negate`, passes when none matched.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.trajectory5 import Invalid, glob

SKILL_PATH = re.compile(r"(?:^|[/\"'\s])(?:\.agents/)?skills/([^/\"'\s]+)/SKILL\.md(?:$|[)\"'\s,;:])")
TOKEN_PATH = re.compile(r"(?:^|/)(?:\.agents/)?skills/([^/\s]+)/SKILL\.md$")
NAME = re.compile(r"^[A-Za-z0-9._:-]+$")
REPORTS_SKILLS = ("replay",)
"""The providers we run whose answers AgentV 5 derives skill calls from."""


class SkillUsedOptions(Options):
    value: Any = None
    """A skill name, a list of names, or `{name|pattern, min, max}`."""
    inverse: Any = None
    """true: `not-skill-used` (or `negate`): passes when no call matched."""


class SkillUsed:
    options = SkillUsedOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        calls = skill_calls(ctx.messages) if ctx.provider in REPORTS_SKILLS else []
        try:
            passed = _passes(spec.options.get("value"), calls, spec.options.get("inverse") is True)
        except Invalid as exc:
            text = f"Grader '{spec.name}' failed: {exc}"
            return Score(0.0, [assertion(text, False)], verdict="fail")
        used = ", ".join(calls) or "(none)"
        return Score(
            1.0 if passed else 0.0, [assertion(f"Skills used: {used}", passed)], verdict="pass" if passed else "fail"
        )


def _passes(value: Any, calls: list[str], inverse: bool) -> bool:
    if isinstance(value, str) and value.strip():
        value = [value]
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        found = [name.strip() in calls for name in value]
        return not any(found) if inverse else all(found)
    if not isinstance(value, dict):
        raise Invalid("skill-used assertion must have a string, string array, or object value")
    name, pattern = (
        v.strip() if isinstance(v, str) and v.strip() else None for v in (value.get("name"), value.get("pattern"))
    )
    if not name and not pattern:
        raise Invalid("skill-used assertion object must include a name or pattern property")
    for key in ("min", "max"):
        count = value.get(key, 0)
        if key in value and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
            raise Invalid(f"skill-used assertion object {key} must be a finite non-negative integer")
    low, high = value.get("min"), value.get("max")
    if low is not None and high is not None and high < low:
        raise Invalid("skill-used assertion object max must be greater than or equal to min")
    count = sum(1 for c in calls if (not name or c == name) and (not pattern or glob(c, pattern)))
    if inverse:
        if low is not None or (high is not None and high != 0):
            raise Invalid("not-skill-used object assertions only support name/pattern with no count bounds, or max: 0")
        return count == 0
    low = low if low is not None else (0 if high is not None else 1)
    return low <= count and (high is None or count <= high)


def skill_calls(messages: tuple[dict[str, Any], ...]) -> list[str]:
    """The names of the skills the messages' tool calls used, as AgentV 5's deriveSkillCallsFromToolCalls finds
    them (a heuristic call counted once per name, path and source)."""
    found: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for call in (c for m in messages for c in m.get("tool_calls") or ()):
        if call.get("status") not in (None, "ok", "unknown"):
            continue  # AgentV 5 keeps an errored call but no grader counts it
        tool = str(call.get("tool") or "").lower()
        given = call.get("input") if isinstance(call.get("input"), dict) else {}
        if tool == "skill":
            skill = _text(given.get("skill")) or _text(given.get("name"))
            found += [skill] if skill else []
            continue
        heuristic: list[tuple[str, str]] = []
        if tool == "read":
            path = _text(given.get("file_path")) or _text(given.get("path")) or _text(given.get("filePath"))
            match = TOKEN_PATH.search(path.replace("\\", "/")) if path else None
            heuristic += [(match.group(1), path)] if match and path and NAME.match(match.group(1)) else []
        else:
            command = _text(given.get("command")) if tool == "bash" else None
            heuristic += _candidates(command) if command else []
            output = call.get("output")
            if output is not None:
                heuristic += _candidates(
                    output if isinstance(output, str) else json.dumps(output, separators=(",", ":"))
                )
        for name, path in heuristic:
            if (name, path, "heuristic") not in seen:
                seen.add((name, path, "heuristic"))
                found.append(name)
    return found


def _candidates(text: str) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for raw in text.split():
        token = re.sub(r"[`\"',;:)\]}>]+$", "", re.sub(r"^[`\"'(\[{<]+", "", raw)).replace("\\", "/")
        match = TOKEN_PATH.search(token)
        if match and NAME.match(match.group(1)):
            found[token] = match.group(1)
    for match in SKILL_PATH.finditer(text.replace("\\", "/")):
        inner = re.search(r"(?:\.agents/)?skills/([^/\"'\s]+)/SKILL\.md", match.group(0))
        if inner and NAME.match(inner.group(1)):
            found[inner.group(0)] = inner.group(1)
    return [(name, path) for path, name in found.items()]


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


GRADERS = {"skill-used": SkillUsed()}
