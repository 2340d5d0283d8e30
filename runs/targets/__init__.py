"""Targets: the system under test (an LLM or a command), as AgentV's targets.yaml describes them.

`resolve(suite, ...)` finds the target the suite names (or `--target`), checks
it and its `grader_target`, and returns callables the runner uses; every
problem is reported with the targets file and field.
"""

from __future__ import annotations

from typing import Literal, Protocol

from mutators.providers.turns import Reply
from runs.evalfile.model import Case


class TargetFailed(Exception):
    """The target gave no answer (command failed, timed out, provider fault after retries): an execution_error."""


class Target(Protocol):
    name: str
    grader_target: str | None
    provider: str
    prompt_mode: Literal["agent", "lm"]  # file references or file contents, as AgentV formats the input for it

    def answer(self, case: Case, attempt: int) -> Reply:
        """Run the test's input through the system under test (a command target makes its own scratch directory)."""
        ...
