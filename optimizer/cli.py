"""The `autoresearch` command: parses arguments, dispatches, and maps errors to exit codes.

This is the one error boundary of the project: commands raise domain errors
(or return an exit code), and nothing else calls `sys.exit`. Each command
lives in its own module under `optimizer/commands/` and imports what it needs
when it runs, so `--help` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, TextIO

import typer

from autoresearch.optimizer import signals
from autoresearch.optimizer.commands import COMMANDS
from autoresearch.plumbing.errors import INTERRUPTED, INVALID_INPUT, OK, exit_code_for
from autoresearch.plumbing.redact import redact

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


for name, command in COMMANDS.items():
    app.command(name)(command)


class MaskedStream:
    """The console, masked: whatever the process prints (a summary, `--json`, a log line, a traceback)
    leaves through `write`, so no print anywhere can show a key the masker knows."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(redact(text) if isinstance(text, str) else text)
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding: the stream's own
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> None:
    sys.stdout, sys.stderr = MaskedStream(sys.stdout), MaskedStream(sys.stderr)
    try:
        code = run_cli(argv)
    finally:
        signals.end_started()
    sys.exit(code)


def run_cli(argv: list[str] | None = None) -> int:
    try:
        result = app(args=argv, standalone_mode=False, prog_name="autoresearch")
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:  # Ctrl-C in a command that does not take signals itself, or a prompt's input ended
        print("autoresearch: interrupted", file=sys.stderr)
        return INTERRUPTED
    except typer.TyperException as exc:  # usage errors: typer has already named the option
        show = getattr(exc, "show", None)
        show() if show else print(f"autoresearch: {exc.format_message()}", file=sys.stderr)
        return OK if exc.exit_code == 0 else INVALID_INPUT
    except BaseException as exc:  # the boundary: known errors become one line and an exit code
        code = exit_code_for(exc)
        if code is None:
            raise
        message = redact(str(exc)) or exc.__class__.__name__
        if not isinstance(exc, KeyboardInterrupt):
            print(f"autoresearch: {message}", file=sys.stderr)
        else:
            print("autoresearch: interrupted", file=sys.stderr)
        return code
    return result if isinstance(result, int) else 0
