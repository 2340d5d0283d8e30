"""The options several commands share, as typer declares them: loaded with the parser, never by a command
answered without it (`commands.quick`)."""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import DEFAULT_CONFIG
from autoresearch.plumbing.repo import find_config

ConfigOption = typer.Option(
    Path(DEFAULT_CONFIG),
    "--config",
    "-c",
    help="The experiment's config file; the repository is the one holding it (else the current directory's). "
    "Not in the current directory: looked for in each folder above it, up to the repository's root.",
    callback=find_config,
)
QuietOption = typer.Option(False, "--quiet", "-q", help="Only warnings, errors and the final summary (for cron).")
