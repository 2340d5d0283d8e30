"""A `not-TYPE` grader AgentV 5.3.1-next.1 has no such type for: it scores 0, as there.

AgentV 5's parser inverts only `not-trajectory:*` (and registers `not-skill-used`);
any other `not-` type reaches its registry as written, which knows no such type:
the grader fails ("Unknown grader type") and counts 0 in the test's mean, an
ordinary quality failure. Its `negate: true` form is what negates a grader there.
"""

from __future__ import annotations

from typing import ClassVar

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.options import Options

KIND = "agentv5-unknown-type"


class UnknownOptions(Options):
    written: str = ""
    """The type as the file wrote it (`not-contains`)."""


class Unknown5:
    options: ClassVar[type[Options]] = UnknownOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return str(getattr(options, "written", "")) or spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        text = f"Grader '{spec.name}' failed: Unknown grader type: \"{spec.options.get('written', '')}\""
        return Score(0.0, [assertion(text, False)], verdict="fail")


GRADERS = {KIND: Unknown5()}
