"""AgentV 5's `trajectory:goal-success`: the LLM grader asked whether the agent achieved a goal, given the steps
of its trajectory and its final answer (`graders/trajectory.ts`, `buildGoalCriteria`).

The goal (a string, or `{goal}`) and a JSON summary of the trace's steps become the criteria of the default
LLM grader, whose score stands; `inverse` (the `not-` form, or `negate`) is one minus it. A value AgentV 5
cannot read fails the grader with its message. The steps are listed in the order the target reported them
(AgentV 5 sorts them by start time: the same order unless the target gave times).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.llm import LLMGrader
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.trajectory5 import TrajectoryOptions, trace_steps

KIND = "trajectory:goal-success"


class GoalSuccess5:
    options: ClassVar[type[Options]] = TrajectoryOptions
    needs_llm: ClassVar[bool] = True

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        goal = _goal(spec.options.get("value"))
        if goal is None:
            text = (
                f"Grader '{spec.name}' failed: {KIND} assertion must have a string value or an object with a goal "
                "property"
            )
            return Score(0.0, [assertion(text, False)], verdict="fail")
        criteria = "\n".join(
            [
                "Determine whether the agent successfully achieved the goal using the observed trajectory and final "
                "output.",
                "",
                f"Goal: {goal}",
                "",
                "Trajectory:",
                summary(trace_steps(ctx.case, ctx.messages)),
                "",
                "Final output:",
                ctx.output,
            ]
        )
        judged = LLMGrader().grade(GraderSpec("llm-grader", spec.name, {"criteria": criteria}), ctx)
        if spec.options.get("inverse") is not True or judged.verdict == "skip":
            return judged
        score = min(1.0, max(0.0, 1.0 - judged.score))
        text = (
            f"Agent unexpectedly achieved the goal: {goal}"
            if judged.score >= 0.5
            else f"Agent did not achieve the forbidden goal: {goal}"
        )
        return Score(score, [assertion(text, score >= 0.5)], verdict="pass" if score >= 0.5 else "fail")


def _goal(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("goal")
    return value.strip() if isinstance(value, str) and value.strip() else None


def summary(steps: list[dict[str, Any]]) -> str:
    """AgentV 5's summarizeTrajectoryForJudge: `JSON.stringify({stepCount, steps}, null, 2)`."""
    listed = [
        {
            "index": index + 1,
            "type": step["type"],
            "name": step["name"],
            **({"spanName": step["span"]} if step.get("span", step["name"]) != step["name"] else {}),
        }
        for index, step in enumerate(steps)
    ]
    return json.dumps({"stepCount": len(listed), "steps": listed}, indent=2, ensure_ascii=False)


GRADERS = {KIND: GoalSuccess5()}
