"""`autoresearch report`: what an experiment did, from its files and git alone."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.optimizer.commands.summary import print_summary, summary_json


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    config: Path = ConfigOption,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text (schema in the README)."),
    markdown: bool = typer.Option(
        False, "--markdown", help="Print a pull request's description in Markdown (what `finalize` writes)."
    ),
) -> int:
    """Print an experiment's summary: cycles, decisions, scores, cost, its commits, and how to adopt or revert them."""
    from autoresearch.optimizer.experiment import review
    from autoresearch.plumbing.errors import InvalidInput

    if as_json and markdown:
        raise InvalidInput("report: --json and --markdown are two formats: choose one")
    cfg, ws, paths = find_experiment(experiment, config)
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{cfg.experiment_name}' has no history in {paths.root}")
    if as_json:
        print(json.dumps(summary_json(paths, ws, cfg)))
    elif markdown:
        print(review.markdown(review.load(paths), paths, cfg.experiment_name, ws.artifact, review.scale(cfg)), end="")
    else:
        print_summary(paths, ws, cfg)
    return 0
