"""What several commands share: finding and loading the config, and setting up logs (their typer options: options.py).

Nothing heavy is imported at module level: every command module imports this
one, and `--help` must stay fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.repo import config_dir

if TYPE_CHECKING:
    from autoresearch.optimizer.config import Config
    from autoresearch.optimizer.gitrepo.workspace import Workspace
    from autoresearch.plumbing.paths import ExperimentPaths

DEFAULT_CONFIG = "autoresearch.yaml"


def load(path: Path, overrides: JSONObject | None = None) -> "Config":
    """The config, and the masker told where its secrets may come from: every command that reads a
    config may print what an eval, a provider or an old record said."""
    from autoresearch.optimizer import config as config_file
    from autoresearch.optimizer import masking
    from autoresearch.plumbing.repo import config_root

    cfg = config_file.load(path, overrides)
    root = config_root(path)
    if root is not None:  # outside a repository the command refuses next
        masking.learn(cfg, root)
    return cfg


def experiment(name: str | None, config: Path) -> tuple["Config", "Workspace", "ExperimentPaths"]:
    """An experiment's config, the user's checkout and its files, for the commands that only read or
    signal an experiment (no worktree is created, no lock taken)."""
    from autoresearch.optimizer.gitrepo.workspace import open_workspace
    from autoresearch.plumbing.paths import ExperimentPaths

    cfg = load(config, {"experiment": name})
    ws = open_workspace(config_dir(config), cfg.artifact)
    return cfg, ws, ExperimentPaths.of(ws.root, cfg.results_dir, cfg.experiment_name)


def settle_versions(results: Path) -> None:
    """Finish or undo a `rollback` or `promote` an interruption left in this results directory, saying which."""
    from autoresearch.optimizer.experiment.settle import settle

    for line in settle(results):
        print(line, file=sys.stderr)


def setup_logging(log_file: Path | None = None, quiet: bool = False, console: bool = True) -> None:
    from autoresearch.optimizer import daemonlog

    daemonlog.setup(log_file, quiet, console)
