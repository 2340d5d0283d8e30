"""AgentV's retries of a failed answer: a `cli` target that fails (exits non-zero, times out, writes no
`{OUTPUT_FILE}`) is asked again, `eval.max_retries` times (AgentV's default: 2), after 1 s, 2 s, 4 s, …
(at most 30 s), with `{ATTEMPT}` counting the retries, so a flaky command passes here when it passes there.
A `replay` target's failed lookup is retried too, as AgentV retries it (the next attempt's record), without
the wait: a file read again has nothing to wait for.

An LLM target's provider client retries by its own table (`providers`) instead. A failure that no retry can
mend (a command without `{OUTPUT_FILE}`) is not retried: AgentV retries it, to the same end. Nor is a 5.x
file's failed command, which AgentV 5 grades instead of retrying (`AnsweredInError`). Nor is one whose
run was given up meanwhile (its caller has seen enough) or is being interrupted: the wait ends early and the
failure stands.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing import process
from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.targets import Answer, AnsweredInError, Target, TargetFailed, TargetMisconfigured

WAITS = {"cli": True, "replay": False}  # the providers whose failed answers are retried, and whether after a wait
DEFAULT_MAX_RETRIES = 2  # AgentV 4.42.4's `--max-retries` default


def backoff_s(retry: int) -> float:
    """AgentV's retryBackoffMs: 2^retry seconds, at most 30."""
    return min(2.0**retry, 30.0)


@dataclass(frozen=True)
class Retries:
    """How often a failed answer is asked again, and the event that says its run no longer wants it."""

    max_retries: int = DEFAULT_MAX_RETRIES
    given_up: threading.Event | None = None

    def answer(self, target: Target, case: Case, attempt: int, cwd: Path | None) -> Answer:
        """The target's answer, asked again after each failure while retries are left; the last failure is raised."""
        retries = self.max_retries if target.provider in WAITS else 0
        for retry in range(retries):
            try:
                return target.answer(case, attempt + retry, cwd=cwd)
            except (TargetMisconfigured, AnsweredInError):
                raise
            except (TargetFailed, OSError):
                if not self._still_wanted(backoff_s(retry) if WAITS[target.provider] else 0.0):
                    raise
        return target.answer(case, attempt + retries, cwd=cwd)

    def _still_wanted(self, wait_s: float) -> bool:
        """Wait before the next try; False when the run gave the answer up or is being interrupted meanwhile
        (either ends the wait at once)."""
        if self.given_up is None:
            process.pause(wait_s)
        elif self.given_up.wait(wait_s):
            return False
        return not process.ending()
