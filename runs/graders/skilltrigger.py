"""`skill-trigger`: whether the target invoked a named skill, as AgentV 4.42.4's SkillTriggerGrader decides it.

Every tool call of the target's output messages is looked at, in order, until
one is evidence: a `Skill` call whose `input.skill` contains the skill's name,
a `Read` call whose `input.file_path` (else `input.path`) contains
`skills/<name>/`, or any call whose output (text, else its JSON) contains that
path. `should_trigger: false` inverts the check. AgentV reads tool names after
its agent providers normalize them; a `cli` target's calls are read as
written, so the same names (`Skill`, `Read`) must appear there. A grader with
no `skill` (or not a string) is dropped by AgentV's parser, with a warning:
here too, with a note.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders import trace
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.options import Options
from autoresearch.runs.js import js_number


class SkillTriggerOptions(Options):
    skill: Any = None
    """The skill's name, as it appears in a `Skill` call or under `skills/<name>/`."""
    should_trigger: Any = None
    """false: the test passes when the skill was not invoked (only a boolean counts; anything else is true)."""


def ignored(options: dict[str, Any]) -> str | None:
    """Why AgentV's parser skips this grader (the test runs without it), or None."""
    skill = options.get("skill")
    return None if isinstance(skill, str) and skill else "missing skill"


class SkillTrigger:
    options = SkillTriggerOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        skill = getattr(options, "skill", None)
        return f"skill-trigger-{skill}" if isinstance(skill, str) and skill else spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        skill: str = spec.options["skill"]
        should_trigger = spec.options.get("should_trigger") is not False
        calls = trace.tool_calls(ctx.messages)
        evidence = _evidence(skill, calls)
        if (evidence is not None) == should_trigger:
            if should_trigger:
                text = evidence or f'Skill "{skill}" triggered as expected'
            else:
                text = f'Skill "{skill}" correctly did not trigger'
            return Score(1.0, [assertion(text, True)], verdict="pass")
        if should_trigger:
            text = f'Skill "{skill}" not found in {len(calls)} tool call(s)' if calls else "No tool calls recorded"
        else:
            text = evidence or f'Skill "{skill}" triggered unexpectedly'
        return Score(0.0, [assertion(text, False)], verdict="fail")


def _evidence(skill: str, calls: list[dict[str, Any]]) -> str | None:
    """What shows the skill was invoked (AgentV's wording; an empty string when its evidence is empty), or None."""
    path = f"skills/{skill}/"
    for call in calls:
        name = str(call.get("tool") or "")
        given = call.get("input")
        inputs = given if isinstance(given, dict) else {}
        if name.lower() == "skill":
            argument = _js_string(inputs.get("skill"))
            if skill in argument:
                return f'Skill tool invoked with skill="{argument}"'
        elif name.lower() == "read":
            file_path = _js_string(
                inputs.get("file_path") if inputs.get("file_path") is not None else inputs.get("path")
            )
            if path in file_path:
                return f"Read tool loaded skill file: {file_path}"
        output = call.get("output")
        if output is not None:
            text = output if isinstance(output, str) else json.dumps(output, separators=(",", ":"), ensure_ascii=False)
            if path in text:
                return f'Tool "{name}" output referenced skill file for "{skill}"'
    return None


def _js_string(value: Any) -> str:
    """JavaScript's `String(value ?? '')` for what a JSON input holds."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, list):
        return ",".join(_js_string(item) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


GRADERS = {"skill-trigger": SkillTrigger()}
