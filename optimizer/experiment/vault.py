"""Where an experiment keeps what a mutator must not be able to destroy: under git's own folder.

Without the sandbox a command mutator (or an LLM mutator's tools) works in the
user's checkout, where `git clean -ffdx` or `rm -rf .autoresearch` removes the
results directory with everything in it. Git never cleans inside its common
directory (`git rev-parse --git-common-dir`), so the experiment's lock, the
scope guard's manifest and backups, and a mirror of the results directory live
in `<git-common-dir>/autoresearch/<key>/`, one folder per experiment (the key
names the results directory and the experiment, so two results directories in
one checkout never share one). The scope guard leaves this folder alone (the
daemon writes there), and the sandbox hides it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing.paths import ExperimentPaths

FOLDER = "autoresearch"


def common_dir(ws: Workspace) -> Path:
    return Path(ws.git("rev-parse", "--path-format=absolute", "--git-common-dir")).resolve()


def _key(path: Path) -> str:
    return hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]


@dataclass(frozen=True)
class Vault:
    root: Path  # <git-common-dir>/autoresearch/<experiment>-<key>

    @classmethod
    def of(cls, ws: Workspace, paths: ExperimentPaths) -> Vault:
        return cls(common_dir(ws) / FOLDER / f"{paths.root.name}-{_key(paths.root)}")

    @property
    def lock(self) -> Path:
        """The experiment's lock (see autoresearch.optimizer.experiment.lockfile): the one in the results
        directory is a hard link to it, so deleting that one frees nothing."""
        return self.root / "lock"

    @property
    def guard(self) -> Path:
        """The scope guard's manifest, journal and backups (see autoresearch.optimizer.guard)."""
        return self.root / "guard"

    @property
    def eval_notes(self) -> Path:
        """The notes of the evals running in the checkout (see autoresearch.optimizer.cycle.eval_writes)."""
        return self.root / "eval-writes"

    @property
    def iterations(self) -> Path:
        """The copy of the lines the daemon appended to iterations.jsonl (see autoresearch.optimizer.guard.ledger)."""
        return self.root / "records" / "iterations.jsonl"

    @property
    def mirror(self) -> Path:
        """Hard links to the experiment's files (see autoresearch.optimizer.experiment.mirror)."""
        return self.root / "mirror"


def checkout_lock(ws: Workspace) -> Path:
    """Held by every run working in this checkout's tree, whatever its results directory: a second
    experiment there would take the first one's candidates for out-of-scope changes and undo them."""
    return common_dir(ws) / FOLDER / "checkouts" / f"{_key(ws.root)}.lock"
