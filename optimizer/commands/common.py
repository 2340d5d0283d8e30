"""What several commands share: finding and loading the config, options, and setting up logs.

Nothing heavy is imported at module level: every command module imports this
one, and `--help` must stay fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from optimizer.config import Config

DEFAULT_CONFIG = "autoresearch.yaml"

ConfigOption = typer.Option(Path(DEFAULT_CONFIG), "--config", "-c", help="The experiment's config file.")
QuietOption = typer.Option(False, "--quiet", "-q", help="Only warnings, errors and the final summary (for cron).")


def load(path: Path, overrides: dict | None = None) -> "Config":
    from optimizer import config as config_file

    return config_file.load(path, overrides)


def config_dir(path: Path) -> Path:
    """Commands work in the repository that holds the config file."""
    return path.resolve().parent


def setup_logging(log_file: Path | None = None, quiet: bool = False, console: bool = True) -> None:
    from optimizer import logs

    logs.setup(log_file, quiet, console)
