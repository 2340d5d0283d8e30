"""Errors raised while running an eval or reading its results.

Each carries the exit code the CLI maps it to (autoresearch.plumbing.errors), so the
boundary in `autoresearch.optimizer.cli` needs no knowledge of where it came from.
"""

from autoresearch.plumbing.errors import INVALID_INPUT, KEEPS_FAILING, AutoresearchError


class RunsError(AutoresearchError):
    exit_code = INVALID_INPUT


class BadResults(RunsError):
    """A result file or row is unusable (missing, not JSON, no test_id or score)."""

    exit_code = INVALID_INPUT


class EvalFailed(RunsError):
    """The eval ran but did not produce usable results; the loop makes the cycle `error`. `lost_attempts`: its
    attempts lost with their Ray node before it failed (autoresearch.runs.executors.LostAttempts), which the
    cycle's line counts as it counts those of an eval that ended well."""

    exit_code = KEEPS_FAILING

    def __init__(self, message: str, lost_attempts: int = 0) -> None:
        super().__init__(message)
        self.lost_attempts = lost_attempts


class StepFailed(RunsError):
    """One step of a test failed: its target, a grader, a workspace's git, docker or hook, a task on an executor.

    The runner catches these where they happen and makes the test an execution_error (or, for a command eval, the
    eval's failure); each derives from here so that everything we raise has the one root. One that escaped to the
    CLI would be a bug in that catching: it ends the command as an eval that could not run (40), in one line, where
    it used to print a traceback and exit 1, the code a regression exits with.
    """

    exit_code = KEEPS_FAILING
