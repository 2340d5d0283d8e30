"""Version commands (`rollback`, `promote`) as transactions: journaled before they change anything.

The journal says what the command is about to do and where HEAD stood, like the cycle's git
writes (autoresearch.optimizer.gitrepo.gitcmd). It is removed once the command has ended whole:
done, or refused after undoing itself. A command killed in between (kill -9, the machine) leaves
it, and the next command of this results directory finishes or undoes what it began
(autoresearch.optimizer.experiment.settle). Ctrl-C and SIGTERM wait for the transaction's end (a
critical block), so they never split one: the command exits 130 saying how it ended.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict

from autoresearch.plumbing import atomic
from autoresearch.plumbing.critical import critical
from autoresearch.plumbing.errors import IntegrityError, Interrupted, InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory.iterations import Iteration


class Entry(BaseModel):
    """What a version command began, written before its first change."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # built at first use: not at start-up

    command: Literal["rollback", "promote"]
    experiment: str
    root: str  # the checkout (or the experiment's worktree) it writes in
    artifact: str
    head: str  # HEAD before the command
    cycle: int | None = None  # rollback: the KEEP returned to
    target: str | None = None  # rollback: that KEEP's commit
    line: Iteration | None = None  # rollback: its history line, without the commit it has yet to make
    commit: str | None = None  # rollback: a commit already made (only its line is missing)
    branch: str | None = None  # promote: the branch merged
    tip: str | None = None  # promote: that branch's commit


def read(paths: ExperimentPaths) -> Entry:
    """The journal left by a command cut short; IntegrityError (exit 50) when it is not one of ours."""
    try:
        return Entry.model_validate_json(paths.version_journal.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise IntegrityError(
            f"{paths.version_journal}: not a journal of a `rollback` or `promote` ({exc.__class__.__name__}); "
            "check the repository by hand (git status), then remove the file"
        ) from None


@dataclass
class Outcome:
    """How far the command got, in words: what an interruption says it left."""

    said: str = ""


@contextmanager
def told(outcome: Outcome) -> Iterator[None]:
    """Ctrl-C or SIGTERM end the command with one line saying what it left: finished, undone, or nothing."""
    try:
        yield
    except Interrupted as exc:
        raise Interrupted(f"{exc}; {outcome.said or 'nothing was changed'}") from None


@contextmanager
def transaction(paths: ExperimentPaths, entry: Entry) -> Iterator[None]:
    """Journal `entry`, run the block with signals held, and drop the journal when the block ends whole
    (or refuses, having undone itself). Any other failure keeps it, for the next command to settle."""
    with critical():
        atomic.write_text(paths.version_journal, entry.model_dump_json(exclude_none=True) + "\n")
        try:
            yield
        except InvalidInput:
            paths.version_journal.unlink(missing_ok=True)
            raise
        paths.version_journal.unlink(missing_ok=True)
