"""What a grader and a target share: the LLM a grader asks (a target's `grader_target`) and how asking it fails.

Graders take the call; targets make it. Both read these from here, so neither package imports the other.
"""

from __future__ import annotations

from typing import Callable

from autoresearch.providers.turns import Reply
from autoresearch.runs.errors import StepFailed

# (prompt, system) -> reply; given by the runner from the target's grader_target
GraderLLM = Callable[[str, str | None], Reply]


class GraderFailed(StepFailed):
    """The grader could not produce a score (its LLM could not be reached): the test is an execution_error."""


class GraderRetry(GraderFailed):
    """A grader call that failed and is asked again, as AgentV asks again (a `cli` grader target's command
    failed or wrote nothing): after the last attempt the grader skips, as after replies it cannot read."""
