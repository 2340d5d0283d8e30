"""`composite`: several graders combined into one score (weighted average, or a pass-fraction threshold)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, Field

from runs.evalfile.model import GraderSpec
from runs.evalfile.problems import Problems
from runs.graders.base import Context, Options, Score, parsed


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
        from runs.graders import grade

        opts = parsed(spec, self)
        members = inner_specs(spec)
        entries = [grade(member, ctx) for member in members]
        assertions = [a for entry in entries for a in entry["assertions"]]
        details = {"scores": entries}
        if opts.aggregator.type == "threshold":
            passed = sum(1 for e in entries if e["verdict"] == "pass")
            fraction = passed / len(entries) if entries else 0.0
            return Score(1.0 if fraction >= opts.aggregator.threshold else 0.0, assertions, details)
        weights = [(opts.aggregator.weights or {}).get(m.name, m.weight) for m in members]
        total = sum(weights)
        score = sum(w * e["score"] for w, e in zip(weights, entries)) / total if total > 0 else 0.0
        return Score(score, assertions, details)


GRADERS = {"composite": Composite()}
