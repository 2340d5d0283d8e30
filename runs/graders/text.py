"""Deterministic text graders, as AgentV 4.42.4 scores them.

`contains*` look at the raw answer (case-sensitive, or `icontains*` not);
`equals`, `starts-with` and `ends-with` compare trimmed text; `regex` runs
on the raw answer with JavaScript semantics. Each scores 1 or 0.
"""

from __future__ import annotations

from typing import Any, ClassVar

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.grader_llm import GraderFailed
from autoresearch.runs.graders import jsregex
from autoresearch.runs.graders.base import Context, Grader, Score, assertion, parsed
from autoresearch.runs.graders.plain import Field, PlainOptions, text, texts


class ValueOptions(PlainOptions):
    model_fields = {"value": Field(text)}
    value: str


class ListOptions(PlainOptions):
    model_fields = {"value": Field(texts)}
    value: list[str]


class RegexOptions(PlainOptions):
    model_fields = {"value": Field(text), "flags": Field(text, default="", required=False)}
    value: str
    flags: str

    def after(self) -> None:
        problem = jsregex.problem(self.value, self.flags)
        if problem is not None:
            raise ValueError(f"invalid regex /{self.value}/{self.flags}: {problem}")


class _Text:
    options: type[PlainOptions] = ValueOptions  # not a ClassVar: `Contains` picks its own per instance
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Any) -> str:
        value = getattr(options, "value")
        return f"{spec_type}-{len(value)}" if isinstance(value, list) else f"{spec_type}-{value}"


class Contains(_Text):
    def __init__(self, fold: bool, mode: str):
        self.fold, self.mode = fold, mode  # mode: one | any | all
        self.options = ValueOptions if mode == "one" else ListOptions

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        value = parsed(spec, self).value
        needles = [value] if isinstance(value, str) else value
        haystack = ctx.output.lower() if self.fold else ctx.output
        found = [n for n in needles if (n.lower() if self.fold else n) in haystack]
        passed = bool(found) if self.mode != "all" else len(found) == len(needles)
        word = {"one": "contains", "any": "contains any of", "all": "contains all of"}[self.mode]
        text = f"Output {word} {value!r}" + (" (case-insensitive)" if self.fold else "")
        missing = [n for n in needles if n not in found]
        return Score(
            1.0 if passed else 0.0, [assertion(text, passed, f"missing: {missing}" if missing and not passed else None)]
        )


class Trimmed(_Text):
    """equals / starts-with / ends-with on the trimmed answer and the trimmed value."""

    def __init__(self, check: str):
        self.check = check

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        value = parsed(spec, self).value.strip()
        answer = ctx.output.strip()
        passed = {
            "equals": answer == value,
            "starts-with": answer.startswith(value),
            "ends-with": answer.endswith(value),
        }[self.check]
        return Score(1.0 if passed else 0.0, [assertion(f"Output {self.check} {value!r}", passed)])


class Regex(_Text):
    options = RegexOptions

    def default_name(self, spec_type: str, options: Any) -> str:
        """AgentV names a regex by its first 30 characters."""
        return f"{spec_type}-{options.value[:30]}"

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        try:
            passed = jsregex.matches(opts.value, opts.flags, ctx.output)
        except TimeoutError:
            raise GraderFailed(f"regex /{opts.value}/{opts.flags} ran past {jsregex.TIMEOUT_SEC:g} s") from None
        return Score(1.0 if passed else 0.0, [assertion(f"Output matches /{opts.value}/{opts.flags}", passed)])


GRADERS: dict[str, Grader] = {
    "contains": Contains(False, "one"),
    "contains-any": Contains(False, "any"),
    "contains-all": Contains(False, "all"),
    "icontains": Contains(True, "one"),
    "icontains-any": Contains(True, "any"),
    "icontains-all": Contains(True, "all"),
    "equals": Trimmed("equals"),
    "starts-with": Trimmed("starts-with"),
    "ends-with": Trimmed("ends-with"),
    "regex": Regex(),
}
