"""AgentV's retries of a failed answer: a `cli` target that fails (exits non-zero, times out, writes no
`{OUTPUT_FILE}`) is asked again, `eval.max_retries` times (AgentV's default: 2), after 1 s, 2 s, 4 s, …
(at most 30 s), with `{ATTEMPT}` counting the retries, so a flaky command passes here when it passes there.

Only `cli` targets: an LLM target's provider client retries by its own table (`providers`), and a replay
fixture that is missing stays missing. A failure that no retry can mend (a command without `{OUTPUT_FILE}`)
is not retried: AgentV retries it, to the same end.
"""

from __future__ import annotations

from pathlib import Path

from autoresearch.plumbing import process
from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.targets import Answer, Target, TargetFailed, TargetMisconfigured

RETRIED = ("cli",)
DEFAULT_MAX_RETRIES = 2  # AgentV 4.42.4's `--max-retries` default


def backoff_s(retry: int) -> float:
    """AgentV's retryBackoffMs: 2^retry seconds, at most 30."""
    return min(2.0**retry, 30.0)


def answer(target: Target, case: Case, attempt: int, cwd: Path | None, max_retries: int) -> Answer:
    """The target's answer, asked again after each failure while retries are left; the last failure is raised."""
    retries = max_retries if target.provider in RETRIED else 0
    for retry in range(retries):
        try:
            return target.answer(case, attempt + retry, cwd=cwd)
        except TargetMisconfigured:
            raise
        except (TargetFailed, OSError):
            process.pause(backoff_s(retry))
    return target.answer(case, attempt + retries, cwd=cwd)
