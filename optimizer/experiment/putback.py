"""The daemon's lines iterations.jsonl lost since the last run, put back before a command reads the history.

A start does it (autoresearch.optimizer.startup.opening), and so does a command that reads the history and
appends to it (a rollback): one that read a history short of the daemon's last line (a kill between the
two appends) numbered its own line after the lines it saw, and the next start, finding the file no longer
a start of the copy, put the copy in its place and so dropped that line, and its commit with it.
"""

from __future__ import annotations

from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.guard import journal
from autoresearch.optimizer.guard.ledger import repair
from autoresearch.plumbing.paths import ExperimentPaths


def put_back_history(paths: ExperimentPaths, vault: Vault) -> None:
    """What iterations.jsonl lost of the daemon's lines (see autoresearch.optimizer.guard.ledger), put back,
    and said; a mutation cut short by a kill (its undo pending) had the lines past the copy's end appended."""
    done = repair(paths.iterations, vault.iterations, journal.armed(vault.guard))
    if done is None:
        return
    if done.kept is not None:
        daemonlog.get().warning(
            f"iterations.jsonl is gone: a new experiment begins; the daemon's lines of the last one are kept in {done.kept}"
        )
    elif done.saved is None:
        daemonlog.get().warning(
            f"put back iterations.jsonl: {done.added} byte(s) of the daemon's lines it lacked, from {vault.iterations}"
        )
    else:
        daemonlog.get().warning(
            f"put back iterations.jsonl from the daemon's copy {vault.iterations}; "
            f"the file as it was (changed since the daemon wrote it) is saved in full as {done.saved}"
        )
