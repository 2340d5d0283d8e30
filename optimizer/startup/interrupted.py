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
import shlex
from pathlib import Path

from autoresearch.optimizer import signals
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment import lockfile
from autoresearch.optimizer.experiment.mirror import Mirror
from autoresearch.optimizer.experiment.vault import FOLDER, Vault
from autoresearch.optimizer.gitrepo.gitcmd import run
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard import journal, rescue
from autoresearch.optimizer.guard.scope import Guard
from autoresearch.plumbing.errors import IntegrityError, InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.repo import git_root


def pending(vault: Vault) -> bool:
    """Whether a mutation's undo is left to finish (the artifact may then hold its candidate)."""
    return journal.armed(vault.guard)


def elsewhere(ws: Workspace, ours: Vault) -> list[Path]:
    """The run directories of the other experiments (another name or results directory) whose mutation in
    this checkout a kill cut short, its undo not done. A config the mutator rewrote to name another experiment
    would otherwise have the start look for the interrupted mutation in that one's folder, find none, and run
    in a checkout holding whatever the mutator left (an eval of its own among it). Called with this checkout
    claimed: no run of another experiment is working in it, so an armed guard there is a dead one's."""
    return left_undone(ws.root, ours.root.parent, ours.root)


def left_undone(root: Path, vaults: Path, ours: Path | None = None) -> list[Path]:
    """The run directories of the mutations in the checkout at `root` whose undo a kill left to a start, by
    the experiments' folders under `vaults` (`<git-common-dir>/autoresearch`), but `ours`. A guard armed by a
    daemon that still holds its lock is a mutation running now, not one a kill cut short."""
    real = os.path.realpath(root)
    found = []
    for folder in sorted(vaults.iterdir()) if vaults.is_dir() else ():
        vault = Vault(folder)
        if folder == ours or not pending(vault) or lockfile.holder(vault.lock) is not None:
            continue
        record = journal.read(vault.guard)
        if record is not None and real in (os.path.realpath(r) for r in record.roots):
            found.append(record.run_dir)
    return found


def left_undone_at(start: Path) -> list[Path]:
    """The run directories of the mutations in the checkout holding `start` whose undo a kill left to a start
    (none outside a repository, or where git cannot say where its folder is)."""
    root = git_root(start.resolve())
    if root is None:
        return []
    try:
        common = run(root, ("rev-parse", "--path-format=absolute", "--git-common-dir"))
    except IntegrityError:
        return []
    return left_undone(root, Path(common) / FOLDER)


def unreadable(error: InvalidInput, start: Path) -> InvalidInput:
    """`error`, a config that cannot be read, with what the user must know when a mutation in the checkout was
    cut short by a kill: its undo, which puts back a config its mutator deleted or wrote over, runs only at
    the start of that experiment, which needs the config."""
    undone = left_undone_at(start)
    if not undone:
        return error
    return InvalidInput(
        f"{error}; a daemon was killed during a mutation in this checkout (run directory {undone[0]}), and what its "
        "mutator changed outside the artifact, the config among it perhaps, is undone only at that experiment's "
        "next start: put the config back as it was (`git diff`, `git checkout`, or your copy) and start again "
        "(lost? any valid config naming the same experiment and results directory will do: that start puts back "
        "the one the mutator changed, yours saved beside it)"
    )


def restore_records(vault: Vault, paths: ExperimentPaths) -> list[Path]:
    """The experiment's files deleted during the interrupted mutation, linked back from their mirror."""
    return Mirror(paths.root, vault.mirror).restore() if pending(vault) else []


def finish(ws: Workspace, vault: Vault, records: list[Path], config_file: Path | None = None) -> bool:
    """Undo what the interrupted mutation changed outside the artifact (saved first), saying what was done
    in the log; whether the undo changed `config_file`, the run's config (then read again by the caller: the
    run must not go on with a config the mutator may have written, nor with one the undo replaced)."""
    resumed = Guard.resume(ws, vault.guard)
    if resumed is None:
        return False
    guard, run_dir = resumed
    found = _contents(config_file)
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
    put_back = False
    if config_file is not None and saved is not None and _contents(config_file) != found:
        done.append(_config_put_back(config_file, saved, rescue.saved_copy(guard, saved, config_file)))
        put_back = True
    for action in done:
        get().warning("recovered after a crash", action=action)
    return put_back


def _contents(file: Path | None) -> bytes | None:
    try:
        return file.read_bytes() if file is not None else None
    except OSError:  # none there (deleted), or not a file: compared as such
        return None


def _config_put_back(config_file: Path, saved: Path, copy: Path | None) -> str:
    """The line that tells the user their config is not the one they left (an edit of theirs since the crash
    cannot be told from the mutator's), where the version found is, and which config this run reads."""
    if copy is None:  # it had been deleted: RESTORE.txt says so
        return (
            f"{config_file.name} was deleted after the interrupted mutation began and is put back as it was then "
            f"(see {saved / 'RESTORE.txt'}); this run reads the config put back"
        )
    return (
        f"{config_file.name} was changed after the interrupted mutation began (by the mutator or by you: the "
        f"recovery cannot tell) and is put back as it was then; the version found is saved in full as {copy}, and "
        f"this run reads the config put back (to run with the version found: stop this run, "
        f"`cp {shlex.quote(str(copy))} {shlex.quote(str(config_file))}`, start again)"
    )
