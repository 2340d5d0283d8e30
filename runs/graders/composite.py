"""`composite`: several graders combined into one score, as AgentV 4.42.4's CompositeGrader.

`weighted_average` weighs each member by `aggregator.weights[name]` (1 when
unnamed there; the member's own `weight` is not used); `threshold` scores the
fraction of members whose verdict passed, and passes when that fraction
reaches `aggregator.threshold`. Members that skipped are left out of both; a
composite whose members all skipped skips too. `code-grader` runs
`aggregator.path` (a shell command, in the eval file's directory) on
`{"results": {name: result}}` and reads `{score, verdict?, assertions?}`;
`llm-grader` asks the grader LLM once with `aggregator.prompt` (its
`{{EVALUATOR_RESULTS_JSON}}` filled in). Either failing scores 0. A member's
`negate` and `required` are not applied inside a composite (AgentV applies
them only to a test's own graders).
"""

from __future__ import annotations

import json
from typing import Any, Callable, ClassVar, Literal, Mapping

from pydantic import AliasChoices, Field, field_validator

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.grader_llm import GraderFailed
from autoresearch.runs.graders.base import ALIASES, Context, Grader, Score, assertion, parsed
from autoresearch.runs.graders.code import checked_assertions, exit_reason, run_command
from autoresearch.runs.graders.custom import KNOWN_KINDS
from autoresearch.runs.graders.llm import _freeform_reply, parse_reply
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.payload import js_json
from autoresearch.runs.graders.prompts import FREEFORM_SYSTEM
from autoresearch.runs.graders.scoring import clamp, verdict

ParseSpec = Callable[[Any, Problems, str | None, str], GraderSpec | None]
"""The graders' own parser of one `assertions` entry (`autoresearch.runs.graders.parse_spec`), which the registry hands in."""

DEFAULT_AGGREGATOR_PROMPT = """Review the following evaluation results:
{{EVALUATOR_RESULTS_JSON}}

Decide the final score and verdict based on all grader results.
Return a JSON object with: score (0.0-1.0), verdict (pass/fail), and reasoning."""


class Aggregator(Options):
    type: Literal["weighted_average", "threshold", "code-grader", "llm-grader"] = "weighted_average"
    weights: dict[str, float] | None = None
    threshold: float = 0.5
    path: str | None = None
    """`code-grader`: the command that aggregates (run by the shell in the eval file's directory)."""
    prompt: str | None = None
    """`llm-grader`: the aggregation prompt (a `file://` prefix is dropped and the rest used as text, as AgentV does)."""

    @field_validator("type", mode="before")
    @classmethod
    def _kebab(cls, value: Any) -> Any:
        return value.replace("_", "-") if isinstance(value, str) and value in ("code_grader", "llm_grader") else value


class CompositeOptions(Options):
    assertions: list[Any] = Field(validation_alias=AliasChoices("assertions", "evaluators"))
    aggregator: Aggregator | None = None
    """Required, as in AgentV, which skips a composite without one."""


def _unnamed(item: Any) -> bool:
    return isinstance(item, dict) and not (isinstance(item.get("name"), str) and item["name"])


def _custom(item: Any) -> bool:
    """A member of a type AgentV does not know (a custom assertion type among them): AgentV leaves it out."""
    kind = item.get("type") if isinstance(item, dict) else None
    return isinstance(kind, str) and ALIASES.get(kind.replace("_", "-"), kind.replace("_", "-")) not in KNOWN_KINDS


def ignored(options: dict[str, Any]) -> str | None:
    """Why AgentV skips this composite altogether (with a warning), or None."""
    opts = CompositeOptions.model_validate(options)
    if opts.aggregator is None:
        return "it has no `aggregator`"
    if all(_unnamed(item) for item in opts.assertions):
        return "none of its members has a `name`"
    return None


class Composite:
    """Its members are graders of the registry it is given, looked up by their type when they run; the registry
    holds the composite too, so it is handed in where the registry is filled rather than imported from there."""

    options: ClassVar[type[Options]] = CompositeOptions
    needs_llm: ClassVar[bool] = False

    def __init__(self, registry: Mapping[str, Grader], parse_spec: ParseSpec) -> None:
        self._registry = registry
        self._parse_spec = parse_spec

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def inner_specs(
        self, spec: GraderSpec, problems: Problems | None = None, test_id: str | None = None, where: str = ""
    ) -> list[GraderSpec]:
        """The member graders; with `problems`, report theirs under `where.assertions[i]`. A member
        with no `name` is left out, as AgentV leaves it out."""
        sink = problems if problems is not None else Problems("")
        raw = CompositeOptions.model_validate(spec.options).assertions
        found = []
        for i, item in enumerate(raw):
            if _custom(item):
                sink.note(
                    test_id,
                    f"{where}.assertions[{i}].type",
                    "left out, as AgentV leaves out a composite member of a type that is not built in",
                )
            elif not _unnamed(item):
                found.append(self._parse_spec(item, sink, test_id, f"{where}.assertions[{i}]"))
        return [s for s in found if s is not None]

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        aggregator = opts.aggregator or Aggregator()
        members = self.inner_specs(spec)
        entries: list[dict[str, Any]] = []
        for member in members:
            raw = self._registry[member.type].grade(member, ctx)
            score = clamp(raw.score)
            entries.append(
                {
                    "name": member.name,
                    "type": member.type,
                    "score": score,
                    "verdict": raw.verdict or verdict(score),
                    "assertions": raw.assertions,
                }
            )
        details = {"scores": entries}
        if aggregator.type == "code-grader":
            return code_aggregate(aggregator.path or "", entries, ctx, details)
        if aggregator.type == "llm-grader":
            return llm_aggregate(aggregator.prompt, entries, ctx, details)
        counted = [e for e in entries if e["verdict"] != "skip"]
        if entries and not counted:
            return Score(0.0, [assertion("All evaluators skipped (infrastructure failure)", False)], details, "skip")
        assertions = [{**a, "text": f"[{e['name']}] {a['text']}"} for e in counted for a in e["assertions"]]
        if aggregator.type == "threshold":
            passed = sum(1 for e in counted if e["verdict"] == "pass")
            fraction = passed / len(counted) if counted else 0.0
            ok = fraction >= aggregator.threshold
            summary = assertion(f"{passed}/{len(counted)} evaluators passed (threshold: {aggregator.threshold:g})", ok)
            return Score(fraction, [summary, *assertions], details, "pass" if ok else "fail")
        weights = [(aggregator.weights or {}).get(e["name"], 1.0) for e in counted]
        total = sum(weights)
        score = sum(w * e["score"] for w, e in zip(weights, counted)) / total if total > 0 else 0.0
        return Score(score, assertions, details)


def member_results(entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        e["name"]: {
            "score": e["score"],
            "verdict": e["verdict"],
            "assertions": e["assertions"],
            "expectedAspectCount": len(e["assertions"]) or 1,
        }
        for e in entries
    }


def code_aggregate(command: str, entries: list[dict[str, Any]], ctx: Context, details: dict[str, Any]) -> Score:
    """AgentV's code aggregator: the members' results on stdin; a failing command scores 0."""
    done = run_command(command, json.dumps({"results": member_results(entries)}, indent=2), ctx.eval_dir, None)
    if isinstance(done, str) or done.returncode != 0:
        reason = done if isinstance(done, str) else exit_reason(done.returncode or 0, done.stderr.strip())
        return Score(0.0, [assertion(f"Code aggregator failed: {reason}", False)], details, "fail")
    try:
        value = json.loads(done.stdout.strip())
    except ValueError:
        value = None
    value = value if isinstance(value, dict) else {}
    score = clamp(value["score"]) if _number(value.get("score")) else 0.0
    items = value.get("assertions") if isinstance(value.get("assertions"), list) else []
    checks = checked_assertions(items)
    said = value.get("verdict") if value.get("verdict") in ("pass", "fail") else None
    return Score(score, checks, details, said)


def llm_aggregate(prompt: str | None, entries: list[dict[str, Any]], ctx: Context, details: dict[str, Any]) -> Score:
    """AgentV's LLM aggregator: one request (no retry); a reply that is not its JSON scores 0."""
    template = prompt.removeprefix("file://") if prompt else DEFAULT_AGGREGATOR_PROMPT
    text = template.replace("{{EVALUATOR_RESULTS_JSON}}", js_json(member_results(entries), indent=2))
    failed = Score(0.0, [assertion("LLM aggregator failed", False)], details, "fail")
    if ctx.llm is None:
        raise GraderFailed("this grader needs an LLM: set `grader_target` on the target")
    try:
        reply = ctx.llm(text, FREEFORM_SYSTEM)
    except GraderFailed:
        return failed
    ctx.grader_cost_usd.append(reply.cost_usd)
    try:
        value = _freeform_reply(parse_reply(reply.text))
    except (ValueError, TypeError, KeyError):
        return failed
    return Score(value["score"], value["assertions"], details)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
