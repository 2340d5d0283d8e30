"""The options several commands share, as typer declares them: loaded with the parser, never by a command
answered without it (`commands.quick`)."""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import DEFAULT_CONFIG

ConfigOption = typer.Option(
    Path(DEFAULT_CONFIG),
    "--config",
    "-c",
    help="The experiment's config file; the repository is the one holding it (else the current directory's).",
)
QuietOption = typer.Option(False, "--quiet", "-q", help="Only warnings, errors and the final summary (for cron).")
