"""The one exception root of the project and the one table of exit codes.

Exit codes are a public contract (DESIGN.md, README): cron jobs and scripts act on them.
Every error we raise derives from `AutoresearchError` and carries its exit code, so the
CLI's boundary maps any of them with `exit_code_for`, wherever it was raised. The domain
errors (`autoresearch.runs.errors`, `autoresearch.mutators.errors`, `autoresearch.providers.errors`) live beside their code and
derive from this root: this module imports nothing of ours.
"""

from __future__ import annotations

OK = 0
REGRESSION = 1
NO_IMPROVEMENT = 10
SAFETY_GATE = 20
INVALID_INPUT = 30
KEEPS_FAILING = 40
INTEGRITY = 50
INTERRUPTED = 130


class AutoresearchError(Exception):
    """The root: every error of ours, each class carrying the exit code the CLI ends with."""

    exit_code = INVALID_INPUT


class InvalidInput(AutoresearchError):
    """Config, eval file, result rows, artifact path, not a git repo, dirty artifact, experiment locked."""

    exit_code = INVALID_INPUT


class SafetyStop(AutoresearchError):
    """A safety gate stopped the run (the mutator kept touching files outside its scope)."""

    exit_code = SAFETY_GATE


class KeepsFailing(AutoresearchError):
    """The eval or the mutator failed too many times in a row."""

    exit_code = KEEPS_FAILING


class IntegrityError(AutoresearchError):
    """The repository or the experiment state is not what the daemon recorded."""

    exit_code = INTEGRITY


class Interrupted(AutoresearchError):
    """Ctrl-C or SIGTERM; raised from the signal handler so `finally` blocks restore the tree."""

    exit_code = INTERRUPTED


def exit_code_for(exc: BaseException) -> int | None:
    """The exit code for an error we know, or None for a bug (which should show its traceback)."""
    if isinstance(exc, KeyboardInterrupt):
        return INTERRUPTED
    if isinstance(exc, AutoresearchError):
        return exc.exit_code
    return None
