"""`autoresearch promote [EXPERIMENT]`: bring a worktree experiment's branch onto the user's branch."""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.common import settle_versions
from autoresearch.optimizer.commands.options import ConfigOption


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    config: Path = ConfigOption,
) -> int:
    """Merge the branch autoresearch/<experiment> into the branch checked out here: a fast-forward when
    it can be, else a merge commit. Refuses (exit 30) a tree with uncommitted changes, a detached HEAD,
    a running experiment, and a merge that conflicts (which it undoes, leaving everything as it was).
    """
    from autoresearch.optimizer import signals
    from autoresearch.optimizer.experiment import versions

    signals.install(left="")  # the command says itself what an interruption left
    cfg, main, paths = find_experiment(experiment, config)
    settle_versions(paths.results_dir)
    print(versions.promote(main, paths, cfg.experiment_name))
    return 0
