"""The CLI's parser (typer): the root options and the commands a command line needs.

Built only when `autoresearch.optimizer.cli` cannot answer without it (see
autoresearch.optimizer.commands.quick): typer and the click it carries are most
of a small command's start-up.
"""

from __future__ import annotations

import inspect
import os

import typer

from autoresearch.optimizer.commands import COMMANDS, load
from autoresearch.plumbing.errors import OK


def build(argv: list[str]) -> typer.Typer:
    """The parser, with the commands it needs: the one named, when one is (its module alone imported);
    all of them for the overview `--help` prints, for a name to correct, and for shell completion."""
    app = typer.Typer(
        name="autoresearch",
        help="Improve a prompt, skill, config or code file overnight against your eval, one measured git commit at a time.",
        invoke_without_command=True,
        add_completion=True,  # typer's --install-completion / --show-completion for bash, zsh, fish, PowerShell
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    def _version(value: bool) -> None:
        if value:
            from importlib.metadata import version  # 60 ms to import: paid by `--version` alone

            typer.echo(f"autoresearch {version('autoresearch')}")
            raise typer.Exit(OK)

    @app.callback()
    def _root(
        ctx: typer.Context,
        show_version: bool = typer.Option(
            False, "--version", "-V", callback=_version, is_eager=True, help="Print the installed version and exit."
        ),
    ) -> None:
        if ctx.invoked_subcommand is None:
            typer.echo(ctx.get_help())

    named = next((arg for arg in argv if not arg.startswith("-")), None)
    wanted = [named] if named in COMMANDS and not os.environ.get("_AUTORESEARCH_COMPLETE") else list(COMMANDS)
    for name in wanted:
        command = load(name)
        app.command(name, help=flowed(command.__doc__))(command)
    return app


def flowed(doc: str | None) -> str | None:
    """A docstring as `--help` shows it: each paragraph one line, for rich to wrap to the terminal. typer's rich
    help keeps the docstring's own line breaks, which cut its sentences where the source was wrapped."""
    if doc is None:
        return None
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in inspect.cleandoc(doc).split("\n\n"))
