"""`composite`: several graders combined into one score, as AgentV 4.42.4's CompositeGrader.

`weighted_average` weighs each member by `aggregator.weights[name]` (1 when
unnamed there; the member's own `weight` is not used); `threshold` scores the
fraction of members whose verdict passed, and passes when that fraction
reaches `aggregator.threshold`. Members that skipped are left out of both; a
composite whose members all skipped skips too. A member's `negate` and
`required` are not applied inside a composite (AgentV applies them only to
a test's own graders).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, Field

from runs.evalfile.model import GraderSpec
from runs.evalfile.problems import Problems
from runs.graders.base import Context, Options, Score, assertion, parsed


class Aggregator(Options):
    type: Literal["weighted_average", "threshold"] = "weighted_average"
    weights: dict[str, float] | None = None
    threshold: float = 0.5


class CompositeOptions(Options):
    assertions: list[Any] = Field(validation_alias=AliasChoices("assertions", "evaluators"))
    aggregator: Aggregator = Field(default_factory=Aggregator)


def inner_specs(spec: GraderSpec, problems: Problems | None = None, test_id: str | None = None, where: str = "") -> list[GraderSpec]:
    """The member graders; with `problems`, report theirs under `where.assertions[i]`."""
    from runs.graders import parse_spec

    sink = problems if problems is not None else Problems("")
    raw = CompositeOptions.model_validate(spec.options).assertions
    found = [parse_spec(item, sink, test_id, f"{where}.assertions[{i}]") for i, item in enumerate(raw)]
    return [s for s in found if s is not None]


class Composite:
    options: ClassVar[type[Options]] = CompositeOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        from runs.graders import REGISTRY
        from runs.graders.scoring import clamp, verdict

        opts = parsed(spec, self)
        members = inner_specs(spec)
        entries: list[dict[str, Any]] = []
        for member in members:
            raw = REGISTRY[member.type].grade(member, ctx)
            score = clamp(raw.score)
            entries.append({"name": member.name, "type": member.type, "score": score, "verdict": raw.verdict or verdict(score), "assertions": raw.assertions})
        counted = [e for e in entries if e["verdict"] != "skip"]
        details = {"scores": entries}
        if entries and not counted:
            return Score(0.0, [assertion("All evaluators skipped (infrastructure failure)", False)], details, "skip")
        assertions = [{**a, "text": f"[{e['name']}] {a['text']}"} for e in counted for a in e["assertions"]]
        if opts.aggregator.type == "threshold":
            passed = sum(1 for e in counted if e["verdict"] == "pass")
            fraction = passed / len(counted) if counted else 0.0
            ok = fraction >= opts.aggregator.threshold
            summary = assertion(f"{passed}/{len(counted)} evaluators passed (threshold: {opts.aggregator.threshold:g})", ok)
            return Score(fraction, [summary, *assertions], details, "pass" if ok else "fail")
        weights = [(opts.aggregator.weights or {}).get(e["name"], 1.0) for e in counted]
        total = sum(weights)
        score = sum(w * e["score"] for w, e in zip(weights, counted)) / total if total > 0 else 0.0
        return Score(score, assertions, details)


GRADERS = {"composite": Composite()}
