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
    """The eval ran but did not produce usable results; the loop makes the cycle `error`."""

    exit_code = KEEPS_FAILING
