"""What every grader shares: the context it grades, the score it returns, and the Protocol.

A grader gets the test, the target's answer and its measurements, and
returns a raw score in [0, 1] with its assertions; the common fields
(weight, negate, required, threshold) are applied by `autoresearch.runs.graders.scoring`,
so no grader re-implements them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from autoresearch.runs.evalfile.model import Case, GraderSpec
from autoresearch.runs.grader_llm import GraderLLM


@dataclass
class Context:
    case: Case
    output: str
    eval_dir: Path
    duration_ms: float | None = 0.0  # None: not measured (a turn of a conversation, as AgentV grades it)
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    llm: GraderLLM | None = None
    grader_cost_usd: list[float] = field(default_factory=list)  # LLM graders add what they spend
    question: str = ""  # the input as the target got it (AgentV's `{{input}}`)
    llms: dict[str, GraderLLM] = field(default_factory=dict)  # LLM targets a grader names in its `target`
    target: str = ""
    provider: str = ""
    messages: tuple[
        dict[str, Any], ...
    ] = ()  # the target's output messages with their tool calls, as AgentV keeps them
    token_usage: dict[str, float] | None = None  # as the target reported it; None: not reported (AgentV's "no data")
    reported_cost_usd: float | None = None
    history: tuple[
        dict[str, Any], ...
    ] = ()  # a conversation turn's history: AgentV's trace counts its assistant turns too
    workspace_path: Path | None = None  # the AgentV workspace the target ran in, when the test has one
    file_changes: str | None = None  # its edits since the baseline, as a unified diff (AgentV's `file_changes`)

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class Score:
    score: float
    assertions: list[dict[str, Any]]
    details: dict[str, Any] | None = None
    verdict: str | None = (
        None  # AgentV's own verdict when it is not the score against the threshold: "fail", "pass", or "skip" (no score: left out of the mean, the test an execution_error)
    )


ALIASES = {"llm-judge": "llm-grader", "code-judge": "code-grader", "rubric": "rubrics"}
"""Older names of grader types, read as the type they name now."""


class Grader(Protocol):
    @property
    def options(self) -> type[Any]:
        """The model of the grader's own fields (a pydantic `graders.options.Options`, or a text grader's
        `graders.plain.PlainOptions`): read-only, so a grader may narrow it to its own subclass (and `contains`
        picks it per instance)."""
        ...

    needs_llm: ClassVar[bool]

    def grade(self, spec: GraderSpec, ctx: Context) -> Score: ...

    def default_name(self, spec_type: str, options: Any) -> str: ...


def assertion(text: str, passed: bool, evidence: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"text": text, "passed": bool(passed)}
    if evidence:
        item["evidence"] = evidence
    return item


def parsed(spec: GraderSpec, grader: Grader) -> Any:
    """The spec's options as the grader's model (already validated when the file was loaded)."""
    return grader.options.model_validate(spec.options)
