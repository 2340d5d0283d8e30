"""`autoresearch validate [PATH]`: check an eval file and its targets, listing every problem with file, test id and field.

Without PATH it makes every check `run` makes before it starts, through the same function
(`autoresearch.optimizer.startup.checks.check`, told to make nothing): the config, the repository,
the artifact (there, tracked, clean), the results directory, the lock, the eval (its command's
program, or `eval.file` with its targets, their programs and keys), the mutator and the prices a
budget needs. A refusal is run's own line with run's exit code; an eval file's problems are
listed one a line, as for PATH. The checks themselves are in validating.py, which a plain `validate`
reaches without the parser (`commands.quick`).
"""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.optimizer.commands.validating import accepted, configured, refused

PathArgument = typer.Argument(
    None,
    help="An EVAL.yaml or evals.json; without it, everything `run` checks before it starts, the configured eval.file included.",
)
TargetOption = typer.Option(None, "--target", help="Check this target instead of the file's execution.target.")
JsonOption = typer.Option(False, "--json", help="Print one JSON object instead of text (schema in the README).")


def command(
    path: Path = PathArgument, target: str = TargetOption, config: Path = ConfigOption, as_json: bool = JsonOption
) -> int:
    """Check an eval file and its targets without running anything, or (without PATH) everything `run` checks before it starts; exit 30 when there is a problem.

    What AgentV accepts and ignores (metadata-only fields, unknown fields it
    warns about) is printed as `note:` lines: the file is still ok.
    """
    if path is None:
        return configured(config, target, as_json)
    from autoresearch.plumbing.repo import find_repo_root
    from autoresearch.runs.evaluators.builtin import prepare
    from autoresearch.runs.parse import EvalFileError

    try:
        prepared = prepare(path.resolve(), find_repo_root(path.resolve().parent), target=target)
    except EvalFileError as exc:
        return refused(str(path), exc, as_json)
    return accepted(str(path), prepared, [], as_json)
