"""Targets: the system under test (an LLM or a command), as AgentV's targets.yaml describes them.

`resolve(suite, ...)` finds the target the suite names (or `--target`), checks
it and its `grader_target`, and returns callables the runner uses; every
problem is reported with the targets file and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from autoresearch.runs.errors import StepFailed
from autoresearch.runs.evalfile.model import Case


class TargetFailed(StepFailed):
    """The target gave no answer (command failed, timed out, provider fault after retries): an execution_error."""


class TargetMisconfigured(TargetFailed):
    """The target can never answer as it is defined (a `cli` command without `{OUTPUT_FILE}`): not retried."""


class AnsweredInError(TargetFailed):
    """The command ran and failed (a non-zero exit, a time-out, no `{OUTPUT_FILE}` written) under AgentV 5's
    rules: AgentV 5 does not retry it, grades its error message as the answer (`answer`), and marks the test
    an execution_error with the graders' score. AgentV 4.42.4 throws instead (retried, then scored 0). With no
    `answer`, the one AgentV 5 grades for a failed command: `Error: <message>`."""

    def __init__(self, message: str, answer: Answer | None = None):
        super().__init__(message)
        self.answer = answer if answer is not None else Answer(f"Error: {message}")


@dataclass(frozen=True)
class Answer:
    """The answer text, what the budget counts (tokens, cost), and what the target reported as AgentV keeps it
    for graders: its output messages with their tool calls, its token usage, cost and duration (None: not reported)."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    messages: tuple[dict[str, Any], ...] = ()
    token_usage: dict[str, float] | None = None
    reported_cost_usd: float | None = None
    reported_duration_ms: float | None = None
    task_error: str | None = None  # AgentV 5: the `error` a cli target wrote beside its answer (an execution_error)


class Target(Protocol):
    name: str
    grader_target: str | None
    provider: str
    prompt_mode: Literal["agent", "lm"]  # file references or file contents, as AgentV formats the input for it

    def answer(self, case: Case, attempt: int, cwd: Path | None = None) -> Answer:
        """Run the test's input through the system under test (a command target makes its own scratch directory;
        `cwd` is the test's AgentV workspace, where a command target runs, when it has one)."""
        ...

    def converse(self, history: list[dict[str, str]], turn_id: str) -> Answer:
        """One turn of a multi-turn test: the conversation so far (text turns), the last one the user's."""
        ...
