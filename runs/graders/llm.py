"""LLM-graded assertions: `llm-grader` (free-form score and assertions) and `rubrics` (weighted checks).

The grader LLM is the target's `grader_target`, reached through the runner
(`ctx.llm`), so this module never touches an SDK. A reply that is not the JSON
we asked for is retried; after `ATTEMPTS` the grader fails and the test
becomes an execution_error, as in AgentV. A provider fault (retried already,
each request within the grader target's `timeout_seconds`) reaches us as
GraderFailed and is not asked again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar

from pydantic import AliasChoices, Field

from runs.evalfile.model import GraderSpec
from runs.graders.base import Context, GraderFailed, Options, Score, assertion, parsed
from runs.graders.prompts import FREEFORM_SYSTEM, RUBRIC_SYSTEM, default_prompt, fill
from runs.graders.structured import json_from_text

ATTEMPTS = 3


class RubricItem(Options):
    id: str | None = None
    outcome: str = Field(validation_alias=AliasChoices("outcome", "description"))
    weight: float = Field(default=1.0, ge=0)
    required: bool = False


class LLMOptions(Options):
    prompt: str | None = None
    """Inline template, or a file (`file://path` or a path relative to the eval file) read at run time."""
    rubrics: list[RubricItem] | None = None
    criteria: str | None = None


class RubricOptions(LLMOptions):
    rubrics: list[RubricItem]


class LLMGrader:
    options: ClassVar[type[Options]] = LLMOptions
    needs_llm: ClassVar[bool] = True

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        prompt = self._prompt(opts, ctx)
        if opts.rubrics:
            items = [(item.id or f"rubric-{i + 1}", item) for i, item in enumerate(opts.rubrics)]
            listing = "\n".join(f"- id: {rid} — {item.outcome}" for rid, item in items)
            reply = ask_json(ctx, f"{prompt}\n\n[[ ## rubrics ## ]]\n{listing}", RUBRIC_SYSTEM, _rubric_reply)
            return score_rubrics(items, reply)
        reply = ask_json(ctx, prompt, FREEFORM_SYSTEM, _freeform_reply)
        return Score(reply["score"], reply["assertions"], {"reasoning": reply.get("reasoning", "")} if reply.get("reasoning") else None)

    def _prompt(self, opts: LLMOptions, ctx: Context) -> str:
        criteria = opts.criteria or ctx.case.criteria
        if opts.prompt is None:
            return default_prompt(ctx.case.prompt_text(), ctx.output, ctx.case.expected_text(), criteria)
        return fill(read_template(opts.prompt, ctx.eval_dir), ctx.case.prompt_text(), ctx.output, ctx.case.expected_text(), criteria)


class RubricGrader(LLMGrader):
    options = RubricOptions


def read_template(prompt: str, eval_dir: Path) -> str:
    """A prompt that names a file is read now (graders may change between runs); anything else is the template."""
    if prompt.startswith("file://"):
        return (eval_dir / prompt.removeprefix("file://")).read_text(encoding="utf-8")
    candidate = eval_dir / prompt
    if "\n" not in prompt and len(prompt) < 260 and candidate.suffix in (".md", ".txt", ".prompt") and candidate.is_file():
        return candidate.read_text(encoding="utf-8")
    return prompt


def ask_json(ctx: Context, prompt: str, system: str, check) -> dict[str, Any]:
    """Ask the grader LLM until `check` accepts its JSON, at most ATTEMPTS times."""
    if ctx.llm is None:
        raise GraderFailed("this grader needs an LLM: set `grader_target` on the target")
    problem = ""
    for _ in range(ATTEMPTS):
        reply = ctx.llm(prompt, system)
        ctx.grader_cost_usd.append(reply.cost_usd)
        try:
            return check(_parse(reply.text))
        except (ValueError, TypeError, KeyError) as exc:
            problem = f"{exc}; reply was: {reply.text[:200]!r}"
    raise GraderFailed(f"grader reply was not the expected JSON after {ATTEMPTS} attempts: {problem}")


def _parse(text: str) -> dict[str, Any]:
    repaired = re.sub(
        r'("passed"|"satisfied")\s*:\s*(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_-]*))',
        lambda m: f"{m.group(1)}: {'true' if (m.group(2) or m.group(3) or '').strip().lower() == 'true' else 'false'}",
        text,
    )
    value = json_from_text(repaired)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def _freeform_reply(value: dict[str, Any]) -> dict[str, Any]:
    score = value["score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise ValueError("'score' is not a number")
    items = value.get("assertions") or []
    if not isinstance(items, list):
        raise ValueError("'assertions' is not a list")
    checks = [assertion(str(a.get("text", "")), bool(a.get("passed")), a.get("evidence") or None) for a in items if isinstance(a, dict)]
    return {"score": float(score), "assertions": checks, "reasoning": str(value.get("reasoning", ""))}


def _rubric_reply(value: dict[str, Any]) -> dict[str, Any]:
    checks = value["checks"]
    if not isinstance(checks, list) or not all(isinstance(c, dict) and "id" in c for c in checks):
        raise ValueError("'checks' must be a list of {id, satisfied, reasoning}")
    return {str(c["id"]): c for c in checks}


def score_rubrics(items: list[tuple[str, RubricItem]], checks: dict[str, dict]) -> Score:
    """Satisfied weight over total weight; an unsatisfied `required` rubric makes the score 0."""
    results = []
    for rid, item in items:
        check = checks.get(rid, {})
        results.append((item, check.get("satisfied") is True, str(check.get("reasoning", "")) or None))
    total = sum(item.weight for item, _, _ in results)
    satisfied = sum(item.weight for item, ok, _ in results if ok)
    score = satisfied / total if total > 0 else 0.0
    if any(item.required and not ok for item, ok, _ in results):
        score = 0.0
    return Score(score, [assertion(item.outcome, ok, why) for item, ok, why in results], {"checks": json.loads(json.dumps(checks))})


GRADERS = {"llm-grader": LLMGrader(), "rubrics": RubricGrader()}
