"""The `autoresearch` command: parses arguments, dispatches, and maps errors to exit codes.

This is the one error boundary of the project: commands raise domain errors
(or return an exit code), and nothing else calls `sys.exit`. Each command
lives in its own module under `optimizer/commands/` and imports what it needs
when it runs, so `--help` stays fast.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from autoresearch.optimizer import signals
from autoresearch.optimizer.commands import quick
from autoresearch.plumbing import collector
from autoresearch.plumbing.errors import INTERRUPTED, INVALID_INPUT, OK, exit_code_for, no_room
from autoresearch.plumbing.redact import redact
from autoresearch.plumbing.surrogates import replaced
from autoresearch.plumbing.text import inert


class MaskedStream:
    """The console, masked: whatever the process prints (a summary, `--json`, a log line, a traceback)
    leaves through `write`, so no print anywhere can show a key the masker knows, nor raise on a lone
    surrogate it quotes (a test id, a file name): U+FFFD in its place, as Node prints one."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(redact(replaced(text)) if isinstance(text, str) else text)
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding: the stream's own
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> None:
    collector.starting()
    sys.stdout, sys.stderr = MaskedStream(sys.stdout), MaskedStream(sys.stderr)
    try:
        code = run_cli(argv)
    finally:
        signals.end_started()
    # The interpreter's last act is a full collection over every object the imports made (15-20 ms of each
    # command's CPU, for no garbage worth finding at exit): frozen, they are left to the operating system.
    gc.freeze()
    sys.exit(code)


def run_cli(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    plain = quick.command(args)  # `status` as scripts poll it: no parser to build
    if plain is not None:
        try:
            return plain()
        except BaseException as exc:  # the same boundary as below
            code = _known(exc)
            if code is None:
                raise
            return code
    import typer  # with the click it carries: two thirds of a plain `status`'s start-up

    from autoresearch.optimizer import parser

    try:
        result = parser.build(args)(args=args, standalone_mode=False, prog_name="autoresearch")
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
        code = _known(exc)
        if code is None:
            raise
        return code
    return result if isinstance(result, int) else 0


def _known(exc: BaseException) -> int | None:
    """A known error's exit code, its one line printed; None for a bug (its traceback is shown)."""
    code = exit_code_for(exc)
    if code is None:
        return None
    message = inert(redact(str(no_room(exc) or exc))) or exc.__class__.__name__  # it may quote an eval's stderr
    if not isinstance(exc, KeyboardInterrupt):
        print(f"autoresearch: {message}", file=sys.stderr)
    else:
        print("autoresearch: interrupted", file=sys.stderr)
    return code
