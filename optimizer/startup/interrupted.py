"""A mutation a kill cut short, finished before anything else starts.

The scope guard arms itself on disk before each mutation (see
autoresearch.optimizer.guard.journal). A start that finds it armed knows the
last daemon died while a mutator worked in this checkout, unwatched since:
first the experiment's files the mutator deleted come back from their mirror
(before the log is opened, so that its lines written meanwhile are kept), then
every change outside the artifact since the guard was armed (a planted hook, a
`.git/config` edit, a deleted `.env`) is saved under that cycle's run directory
and undone, as the dead daemon would have done, and the log says what and where.
Nothing is lost: a change of the user's own between the kill and this start is
saved the same way and can be brought back with the printed command.
"""

from __future__ import annotations

import os
from pathlib import Path

from autoresearch.optimizer import signals
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.mirror import Mirror
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard import journal, rescue
from autoresearch.optimizer.guard.scope import Guard
from autoresearch.plumbing.paths import ExperimentPaths


def pending(vault: Vault) -> bool:
    """Whether a mutation's undo is left to finish (the artifact may then hold its candidate)."""
    return journal.armed(vault.guard)


def restore_records(vault: Vault, paths: ExperimentPaths) -> list[Path]:
    """The experiment's files deleted during the interrupted mutation, linked back from their mirror."""
    return Mirror(paths.root, vault.mirror).restore() if pending(vault) else []


def finish(ws: Workspace, vault: Vault, records: list[Path]) -> list[str]:
    """Undo what the interrupted mutation changed outside the artifact (saved first); returns what was
    done, one line each, also logged."""
    resumed = Guard.resume(ws, vault.guard)
    if resumed is None:
        return []
    guard, run_dir = resumed
    with signals.critical():
        changes, saved = rescue.undo_all(guard, run_dir)
        guard.disarm()
    done = []
    if records:
        done.append(f"put back {len(records)} of the experiment's own files deleted during the interrupted mutation")
    if changes and saved is not None:
        paths = [rescue.printable(os.path.relpath(c.path, ws.root)) for c in changes]
        done.append(
            f"undid {len(paths)} change(s) outside the artifact made during the interrupted mutation "
            f"({', '.join(paths[:5])}); saved first in {saved}: {rescue.restore_hint(guard, saved)}"
        )
    for action in done:
        get().warning("recovered after a crash", action=action)
    return done
