"""`autoresearch rollback --to CYCLE`: a new commit bringing back the artifact of an earlier KEEP."""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.common import settle_versions
from autoresearch.optimizer.commands.options import ConfigOption


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    to: int = typer.Option(..., "--to", help="The cycle whose KEEP to return to (see `autoresearch log`)."),
    config: Path = ConfigOption,
) -> int:
    """Restore the artifact as it was after a cycle's KEEP, as a new commit: history is never rewritten.

    The rollback is logged as a KEEP line of its own, so the next `run` resumes from the restored
    version. Refuses (exit 30) a cycle that was not a KEEP, an artifact with uncommitted changes,
    and an experiment that is running.
    """
    from autoresearch.optimizer import signals
    from autoresearch.optimizer.experiment import versions

    signals.install(left="")  # the command says itself what an interruption left
    cfg, main, paths = find_experiment(experiment, config)
    settle_versions(paths.results_dir)
    done = versions.rollback(cfg, main, paths, to)
    if done.record is None:
        print(f"nothing to do: the artifact already is the one of cycle {to}")
    else:
        sha = (done.record.commit or "")[:10]
        print(
            f"rolled back to cycle {to} (score {done.target.score:.4f}): commit {sha}, logged as cycle {done.record.cycle}"
        )
    return 0
