"""LLM-graded assertions: `llm-grader` (free-form score) and `rubrics` (weighted checks), as AgentV 4.42.4 runs them.

The grader LLM is the target's `grader_target`, reached through the runner
(`ctx.llm`), so this module never touches an SDK. A `prompt` is inline text
unless it starts with `file://`; inline text with no `{{variable}}` is the
criteria of the default template, anything else is the whole template. A
reply is checked against AgentV's schema; after `ATTEMPTS` bad replies, one
request asks the LLM to repair its last reply; if that fails too the grader
*skips* (AgentV makes the test an execution_error, unless it was the implicit
criteria-only grader, whose skip is a plain 0). A provider fault (already
retried by the provider layer) skips at once.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any, Callable, ClassVar, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from autoresearch.plumbing import jsonlines
from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.grader_llm import GraderFailed, GraderLLM, GraderRetry
from autoresearch.runs.graders.base import Context, Score, assertion, parsed
from autoresearch.runs.graders.code import run_command
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.payload import prompt_script_input, reference_answer
from autoresearch.runs.graders.prompts import (
    DEFAULT_TEMPLATE,
    FREEFORM_SYSTEM,
    RUBRIC_SYSTEM,
    SCORE_RANGE_SYSTEM,
    has_variables,
    repair_prompt,
    rubric_prompt,
    score_range_prompt,
    substitute,
    variables,
    with_file_changes,
)

ATTEMPTS = 3
MAX_ASSERTIONS = 8


class ScoreRange(Options):
    score_range: tuple[int, int]
    outcome: str = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> ScoreRange:
        low, high = self.score_range
        if not 0 <= low <= high <= 10:
            raise ValueError("score_range must be [min, max] with 0 <= min <= max <= 10")
        return self


def score_range_shorthand(value: Any) -> Any:
    """`{0: Bad, 5: Good}` → ranges [0, 4] and [5, 10], as AgentV expands the shorthand map."""
    if not isinstance(value, dict) or not value:
        return value
    try:
        lows = sorted(int(k) for k in value)
    except (TypeError, ValueError):
        return value
    if lows[0] != 0:
        raise ValueError("a score_ranges map must start at 0")
    bounds = [*lows[1:], 11]
    return [
        {"score_range": [low, bounds[i] - 1], "outcome": value.get(low, value.get(str(low)))}
        for i, low in enumerate(lows)
    ]


class RubricItem(Options):
    id: str | None = None
    outcome: str = Field(default="", validation_alias=AliasChoices("outcome", "description", "criteria"))
    weight: float = Field(default=1.0, ge=0)
    required: bool | None = None
    """A checklist item is required unless `required: false` (a failed one fails the verdict, the score
    stays earned/total); a score-range item only when set (then it must score 10/10)."""
    operator: Literal["correctness", "contradiction"] | None = None
    min_score: float | None = Field(default=None, gt=0, le=1)
    required_min_score: int | None = Field(default=None, ge=0, le=10)
    score_ranges: list[ScoreRange] | None = None

    @field_validator("score_ranges", mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        return score_range_shorthand(value)

    @model_validator(mode="after")
    def _outcome_or_ranges(self) -> RubricItem:
        if not self.outcome and not self.score_ranges:
            raise ValueError("a rubric item needs an `outcome` (or `score_ranges`)")
        return self

    @property
    def minimum(self) -> float | None:
        """A score-range item's required minimum, 0..1 (AgentV: min_score, then required_min_score/10, then 1 when required)."""
        if self.min_score is not None:
            return self.min_score
        if self.required_min_score is not None:
            return self.required_min_score / 10
        return 1.0 if self.required else None


class PromptScript(Options):
    """A command whose stdout is the grader's whole prompt template; it reads the test as JSON on stdin."""

    command: list[str] | None = None
    script: list[str] | None = None  # AgentV's deprecated name for `command`
    config: dict[str, Any] | None = None

    def argv(self, eval_dir: Path) -> list[str]:
        """The command with its last element (the script) resolved against the eval file's directory."""
        argv = list(self.command or self.script or [])
        return [*argv[:-1], str((eval_dir / argv[-1]).resolve())] if argv else []


class LLMOptions(Options):
    prompt: str | PromptScript | None = None
    """Inline text (criteria, or a template when it has `{{variables}}`), `file://path` read at run time,
    or `{command: [...], config: {...}}`, a script that prints the template."""
    rubrics: list[RubricItem] | None = None
    target: str | None = None
    """An LLM target (of the targets file) that grades this assertion instead of the test target's `grader_target`."""
    criteria: str | list[str | RubricItem] | None = None
    """Text: the criteria for this grader. A list (`type: rubrics`): the rubric items, a string being a required item."""
    config: dict[str, Any] | None = None
    """Passed to a prompt script that has no `config` of its own, as AgentV passes it."""
    model: str | None = None
    temperature: float | None = None
    max_steps: int | None = Field(default=None, validation_alias=AliasChoices("max_steps", "maxSteps"))
    preprocessors: list[Any] | None = None
    """AgentV's fields for agent graders and non-text answers: accepted, and without effect on a text answer (as in AgentV)."""


class LLMGrader:
    options: ClassVar[type[Options]] = LLMOptions
    needs_llm: ClassVar[bool] = True

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        llm = ctx.llms.get(opts.target) if opts.target else ctx.llm
        if opts.target and llm is None:
            return Score(
                0.0,
                [assertion(f"Grader '{spec.name}' failed: target '{opts.target}' is not an LLM target", False)],
                verdict="fail",
            )
        items = rubric_items(opts)
        criteria = opts.criteria if isinstance(opts.criteria, str) and opts.criteria else ctx.case.criteria
        template = None
        if isinstance(opts.prompt, PromptScript):
            template = run_prompt_script(opts.prompt, ctx, opts.config)
            if template is None:
                return Score(0.0, [assertion("Prompt template execution failed", False)], verdict="fail")
        elif opts.prompt and opts.prompt.startswith("file://"):
            template = read_template(opts.prompt, ctx.eval_dir)
        elif opts.prompt and has_variables(opts.prompt):
            template = opts.prompt
        elif opts.prompt:
            criteria = opts.prompt
        reference = reference_answer(ctx.case.expected_output)
        listed = [rubric_json(i) for i in items]
        values = variables(
            ctx.question, ctx.output, reference, criteria, ctx.case.metadata, listed or None, ctx.file_changes
        )
        if any(i.score_ranges for i in items):
            prompt = (
                substitute(template, values)
                if template
                else score_range_prompt(ctx.question, ctx.output, reference, criteria, listed, ctx.file_changes)
            )
            reply = ask_json(ctx, llm, prompt, SCORE_RANGE_SYSTEM, _score_range_reply)
            return reply if isinstance(reply, Score) else score_ranges(items, reply)
        if items:
            prompt = (
                substitute(template, values)
                if template
                else rubric_prompt(ctx.question, ctx.output, reference, criteria, listed, ctx.file_changes)
            )
            reply = ask_json(ctx, llm, prompt, RUBRIC_SYSTEM, _rubric_reply)
            return reply if isinstance(reply, Score) else score_rubrics(items, reply)
        prompt = (
            substitute(template, values)
            if template
            else with_file_changes(substitute(DEFAULT_TEMPLATE, values), ctx.file_changes)
        )
        reply = ask_json(ctx, llm, prompt, FREEFORM_SYSTEM, _freeform_reply)
        if isinstance(reply, Score):
            return reply
        return Score(reply["score"], reply["assertions"], reply.get("details"))


class RubricGrader(LLMGrader):
    pass


def rubric_items(opts: LLMOptions) -> list[RubricItem]:
    """The rubric items with their ids (`rubric-N` by position when unnamed) and AgentV's `required` default."""
    raw: list[Any] = list(opts.rubrics or [])
    if isinstance(opts.criteria, list):
        raw += [RubricItem(outcome=c) if isinstance(c, str) else c for c in opts.criteria]
    items = []
    for i, item in enumerate(raw):
        required = item.required if item.required is not None or item.score_ranges else True
        items.append(item.model_copy(update={"id": item.id or f"rubric-{i + 1}", "required": required}))
    return items


def rubric_json(item: RubricItem) -> dict[str, Any]:
    """The item as AgentV holds it (what `{{rubrics}}` shows and the prompts list)."""
    weight = int(item.weight) if float(item.weight).is_integer() else item.weight
    fields: dict[str, Any] = {
        "id": item.id,
        "outcome": item.outcome or None,
        "operator": item.operator,
        "weight": weight,
        "required": item.required,
        "min_score": item.min_score,
        "required_min_score": item.required_min_score,
    }
    if item.min_score is not None and item.required_min_score is None:
        fields["required_min_score"] = round(item.min_score * 10)
    if item.score_ranges:
        fields["score_ranges"] = [{"score_range": list(r.score_range), "outcome": r.outcome} for r in item.score_ranges]
    return {k: v for k, v in fields.items() if v is not None}


def run_prompt_script(script: PromptScript, ctx: Context, config: dict[str, Any] | None) -> str | None:
    """The template a prompt script prints (trimmed), or None when it fails or prints nothing (AgentV then scores 0)."""
    argv = script.argv(ctx.eval_dir)
    if not argv:
        return None
    stdin = json.dumps(
        prompt_script_input(ctx, script.config if script.config is not None else config), indent=2, ensure_ascii=False
    )
    done = run_command(shlex.join(argv), stdin, Path(argv[-1]).parent, None)
    if isinstance(done, str) or done.returncode != 0 or not done.stdout.strip():
        return None
    return done.stdout.strip()


def read_template(prompt: str, eval_dir: Path) -> str:
    """A `file://` prompt is read now (graders may change between runs), relative to the eval file."""
    return (eval_dir / prompt.removeprefix("file://")).read_text(encoding="utf-8")


def ask_json(
    ctx: Context, llm: GraderLLM | None, prompt: str, system: str, check: Callable[[Any], dict[str, Any]]
) -> dict[str, Any] | Score:
    """The checked reply, asked up to ATTEMPTS times then once to repair; a skipping Score when none passes."""
    if llm is None:
        raise GraderFailed("this grader needs an LLM: set `grader_target` on the target")
    problem, last = "", ""
    for request in [prompt] * ATTEMPTS + [None]:
        if request is None:
            if not last.strip():
                break
            request = repair_prompt(problem, last)
        try:
            reply = llm(request, system)
        except GraderRetry as exc:
            problem = str(exc)
            continue
        except GraderFailed as exc:
            return Score(0.0, [assertion(str(exc), False)], verdict="skip")
        ctx.grader_cost_usd.append(reply.cost_usd)
        try:
            return check(parse_reply(reply.text))
        except (ValueError, TypeError, KeyError) as exc:
            problem, last = str(exc) or type(exc).__name__, reply.text
    return _skipped(
        f"Failed to parse evaluator response after {ATTEMPTS} attempts and 1 structure-fix attempt: {problem}"
    )


def _skipped(message: str) -> Score:
    return Score(0.0, [assertion(f"Grader parse failure after {ATTEMPTS} attempts: {message}", False)], verdict="skip")


def parse_reply(text: str) -> Any:
    """AgentV's parseJsonFromText: drop ``` fences, take the outermost {...}, make `"passed"` values booleans, parse strictly."""
    cleaned = re.sub(r"```json\n?|```", "", text).strip()
    blob = re.search(r"\{[\s\S]*\}", cleaned)
    repaired = re.sub(
        r'("passed"\s*:\s*)(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_-]*))',
        lambda m: m.group(1) + ("true" if (m.group(2) or m.group(3) or "").strip().lower() == "true" else "false"),
        blob.group(0) if blob else cleaned,
        flags=re.IGNORECASE,
    )
    return jsonlines.strict(repaired)


def _is_points(value: Any) -> bool:
    return _is_number(value) and float(value).is_integer() and 0 <= value <= 10


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _freeform_reply(value: Any) -> dict[str, Any]:
    """AgentV's freeform schema: `score` a number in [0, 1]; `assertions` (optional) {text, passed, evidence?}; `details` an object."""
    if not isinstance(value, dict) or not _is_number(value.get("score")) or not 0 <= value["score"] <= 1:
        raise ValueError("'score' must be a number between 0 and 1")
    items = value.get("assertions")
    if items is not None and not (isinstance(items, list) and all(_is_assertion(a) for a in items)):
        raise ValueError("'assertions' must be a list of {text, passed, evidence?}")
    details = value.get("details")
    if details is not None and not isinstance(details, dict):
        raise ValueError("'details' must be an object")
    checks = [assertion(a["text"], a["passed"], a.get("evidence")) for a in (items or [])[:MAX_ASSERTIONS]]
    return {"score": float(value["score"]), "assertions": checks, "details": details}


def _is_assertion(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and isinstance(item.get("text"), str)
        and isinstance(item.get("passed"), bool)
        and (item.get("evidence") is None and "evidence" not in item or isinstance(item.get("evidence"), str))
    )


def _rubric_reply(value: Any) -> dict[str, Any]:
    """AgentV's rubric schema: `checks` of {id, satisfied, reasoning} (all required, typed) and `overall_reasoning`."""
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("overall_reasoning"), str)
        or not isinstance(value.get("checks"), list)
    ):
        raise ValueError("expected {checks: [...], overall_reasoning}")
    for check in value["checks"]:
        if not (
            isinstance(check, dict)
            and isinstance(check.get("id"), str)
            and isinstance(check.get("satisfied"), bool)
            and isinstance(check.get("reasoning"), str)
        ):
            raise ValueError("each check must be {id: string, satisfied: boolean, reasoning: string}")
    return value


def score_rubrics(items: list[RubricItem], reply: dict[str, Any]) -> Score:
    """Over the checks the grader returned: satisfied weight / weight of the items checked; a failed
    required item fails the verdict but keeps the score (AgentV's calculateRubricScore)."""
    by_id = {item.id: item for item in items}
    checks, total, earned, failed_required = [], 0.0, 0.0, False
    for check in reply["checks"]:
        item = by_id.get(check["id"])
        if item is None:
            continue
        total += item.weight
        checks.append(assertion(f"[{item.id}] {item.outcome}", check["satisfied"], check["reasoning"] or None))
        if check["satisfied"]:
            earned += item.weight
        elif item.required:
            failed_required = True
    score = min(1.0, max(0.0, earned / total)) if total > 0 else 0.0
    return Score(
        score, checks, {"checks": json.loads(json.dumps(reply["checks"]))}, "fail" if failed_required else None
    )


def _score_range_reply(value: Any) -> dict[str, Any]:
    """AgentV's score-range schema: `checks` of {id: string, score: integer 0..10, reasoning?: string}."""
    if not isinstance(value, dict) or not isinstance(value.get("checks"), list):
        raise ValueError("expected {checks: [...]}")
    if "overall_reasoning" in value and not isinstance(value["overall_reasoning"], str):
        raise ValueError("'overall_reasoning' must be a string")
    for check in value["checks"]:
        if not (isinstance(check, dict) and isinstance(check.get("id"), str) and _is_points(check.get("score"))):
            raise ValueError("each check must be {id: string, score: integer 0-10, reasoning?: string}")
        if "reasoning" in check and not isinstance(check["reasoning"], str):
            raise ValueError("'reasoning' must be a string")
    return value


def score_ranges(items: list[RubricItem], reply: dict[str, Any]) -> Score:
    """Each checked criterion's score/10, weighted; one under its required minimum fails the verdict
    (AgentV's calculateScoreRangeResult). An assertion passes at 7/10 and its minimum."""
    by_id = {item.id: item for item in items}
    checks, raw, total, earned, failed_required = [], {}, 0.0, 0.0, False
    for check in reply["checks"]:
        item = by_id.get(check["id"])
        if item is None:
            continue
        points = int(check["score"])
        raw[item.id] = points
        total += item.weight
        earned += points / 10 * item.weight
        below = item.minimum is not None and points / 10 < item.minimum
        failed_required = failed_required or below
        band = next((r.outcome for r in item.score_ranges or [] if r.score_range[0] <= points <= r.score_range[1]), "")
        text = f"[{item.id}] {item.outcome or item.id} - Score: {points}/10 ({band})"
        checks.append(assertion(text, not below and points >= 7, check.get("reasoning") or None))
    score = min(1.0, max(0.0, earned / total)) if total > 0 else 0.0
    details = {"raw_scores": raw, "normalization": "score / 10", "aggregation": "weighted_average"}
    return Score(score, checks, details, "fail" if failed_required else None)


GRADERS = {"llm-grader": LLMGrader(), "rubrics": RubricGrader()}
