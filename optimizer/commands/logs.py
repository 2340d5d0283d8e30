"""`autoresearch logs [EXPERIMENT] [-f]`: an experiment's daemon.log, rendered for people (or raw with --json)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import typer

from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.plumbing.errors import OK

POLL_S = 0.2


Renderer = Callable[[str], str | None]  # one log line for people, or None to skip it


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's, or the only one)."),
    follow: bool = typer.Option(False, "--follow", "-f", help="Keep printing new lines until Ctrl-C."),
    lines: int = typer.Option(0, "--lines", "-n", help="Only the last N lines (0 = all)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only warnings and errors."),
    as_json: bool = typer.Option(False, "--json", help="The raw JSON lines, as written."),
    config: Path = ConfigOption,
) -> int:
    """Print an experiment's log: one readable line per event, with its local time."""
    from autoresearch.optimizer.experiment.overview import results_root
    from autoresearch.plumbing.paths import ExperimentPaths

    results = results_root(config)
    log = ExperimentPaths.at(results, _experiment(experiment, config, results)).log
    show = (lambda line: line) if as_json else _renderer(quiet)
    offset = _print_existing(log, lines, show)
    if not follow:
        return OK
    try:
        while True:
            offset = _print_new(log, offset, show)
            time.sleep(POLL_S)
    except KeyboardInterrupt:
        return OK


def _experiment(name: str | None, config: Path, results: Path) -> str:
    """The named experiment, else the config's, else the only one there is."""
    from autoresearch.optimizer.experiment import overview
    from autoresearch.plumbing.errors import InvalidInput

    if name:
        overview.experiment(results, name)  # a clear error for an unknown name
        return name
    if config.is_file():
        from autoresearch.optimizer.commands.common import load

        return load(config).experiment_name
    known = overview.experiments(results)
    if len(known) != 1:
        raise InvalidInput(f"name the experiment: {', '.join(known) or 'there is none'} under {results / 'runs'}")
    return known[0]


def _renderer(quiet: bool) -> Renderer:
    from autoresearch.optimizer.daemonlog import render_line

    return lambda line: render_line(line, quiet=quiet, with_time=True)


def _print_existing(log: Path, last: int, show: Renderer) -> int:
    if not log.exists():
        print(f"(no log yet: {log})", file=sys.stderr)
        return 0
    data = log.read_bytes()
    end = data.rfind(b"\n") + 1  # a line still being written is printed once it is whole
    text = data[:end].decode(errors="replace").splitlines()
    _emit(text[-last:] if last else text, show)
    return end


def _print_new(log: Path, offset: int, show: Renderer) -> int:
    from autoresearch.optimizer.daemonlog import new_lines

    lines, offset = new_lines(log, offset)
    _emit(lines, show)
    return offset


def _emit(lines: list[str], show: Renderer) -> None:
    for line in lines:
        rendered = show(line)
        if rendered is not None:
            print(rendered, flush=True)
