"""Errors raised while running an eval or reading its results.

Each carries the exit code the CLI maps it to, so the boundary in
`optimizer.cli` needs no knowledge of where it came from.
"""


class RunsError(Exception):
    exit_code = 30


class BadResults(RunsError):
    """A result file or row is unusable (missing, not JSON, no test_id or score)."""

    exit_code = 30


class EvalFailed(RunsError):
    """The eval ran but did not produce usable results; the loop makes the cycle `error`."""

    exit_code = 40
