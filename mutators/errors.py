"""Errors a mutation can end in. The loop turns `MutationFailed` into an `error` cycle;
the others stop the run with their exit code (autoresearch.plumbing.errors)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from autoresearch.plumbing.errors import INVALID_INPUT, KEEPS_FAILING, OK, AutoresearchError

if TYPE_CHECKING:  # base imports nothing of this module, but the mutators import both
    from autoresearch.mutators.base import MutationResult


class MutatorError(AutoresearchError):
    exit_code = KEEPS_FAILING


class MutationFailed(MutatorError):
    """This one mutation failed (non-zero exit, timeout, bad reply); the loop goes on.

    `spent` is what the attempt cost all the same (a `MutationResult`), so that a
    failed LLM mutation still counts against the budget.
    """

    def __init__(self, message: str, reason: str = "mutator-failed", spent: MutationResult | None = None):
        super().__init__(message)
        self.reason = reason
        self.spent = spent


class MutatorUnusable(MutatorError):
    """The mutator can never work as configured (bad key, unknown model): stop with exit 40."""


class MutatorConfigError(MutatorError):
    """The mutator settings are invalid (exit 30)."""

    exit_code = INVALID_INPUT


class MutationsExhausted(MutatorError):
    """A replay has no edits left: the loop stops normally."""

    exit_code = OK
