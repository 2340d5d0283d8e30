"""`autoresearch status [EXPERIMENT] [--json]`: what the daemons and schedulers are doing, from their files alone.

The command's options; what it prints is autoresearch.optimizer.commands.showstatus's, which the CLI also
calls before building its parser when the arguments are plain (autoresearch.optimizer.commands.quick).
"""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.optimizer.commands.showstatus import show


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: list every experiment)."),
    config: Path = ConfigOption,
    as_json: bool = typer.Option(False, "--json", help="Print the data as JSON."),
) -> int:
    """Show whether an experiment is running, its cycle and phase, scores, spend and last decisions.

    With no name, lists every experiment and scheduler in the repository, one
    line each. A state.json that says "running" while nobody holds the
    experiment's lock is reported as stale (the daemon died).
    """
    return show(experiment, config, as_json)
