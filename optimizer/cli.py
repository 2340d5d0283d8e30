"""The `autoresearch` command: parses arguments, dispatches, and maps errors to exit codes.

This is the one error boundary of the project: commands raise domain errors
(or return an exit code), and nothing else calls `sys.exit`. Each command
lives in its own module under `optimizer/commands/` and imports what it needs
when it runs, so `--help` stays fast.
"""

from __future__ import annotations

import sys

import click
import typer

from optimizer.commands import COMMANDS
from optimizer.errors import INVALID_INPUT, exit_code_for

app = typer.Typer(
    name="autoresearch",
    help="Improve a prompt, skill, config or code file overnight against your eval, one measured git commit at a time.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for name, command in COMMANDS.items():
    app.command(name)(command)


def main(argv: list[str] | None = None) -> None:
    sys.exit(run_cli(argv))


def run_cli(argv: list[str] | None = None) -> int:
    try:
        result = app(args=argv, standalone_mode=False, prog_name="autoresearch")
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        return exit_code_for(KeyboardInterrupt()) or 130
    except click.ClickException as exc:
        exc.show()
        return INVALID_INPUT
    except BaseException as exc:  # the boundary: known errors become one line and an exit code
        code = exit_code_for(exc)
        if code is None:
            raise
        message = str(exc) or exc.__class__.__name__
        if not isinstance(exc, KeyboardInterrupt):
            print(f"autoresearch: {message}", file=sys.stderr)
        else:
            print("autoresearch: interrupted", file=sys.stderr)
        return code
    return result if isinstance(result, int) else 0
