"""Commands answered before the CLI's parser is built: `status` with plain arguments, `run` with none, and
`validate` with none but `--json`.

Scripts and people poll `status` in a loop, and typer (with the click it carries) was two thirds of its
start-up. Arguments this reading is not sure of (a help flag, an unknown option, a second name, `-cPATH`)
go to the parser, which says what the command line means as it always did.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from autoresearch.plumbing.repo import find_config

DEFAULT_CONFIG = "autoresearch.yaml"  # also autoresearch.optimizer.commands.common.DEFAULT_CONFIG


def command(args: list[str]) -> Callable[[], int] | None:
    """The command `args` names, ready to run, when it is `run` alone, `validate [--json]` or `status [NAME]
    [--json] [--config PATH]`; None for anything else (the parser's)."""
    if args == ["run"]:  # as cron lines and scripts start it
        from autoresearch.optimizer.commands.running import plain

        return plain
    if args in (["validate"], ["validate", "--json"]):  # everything run checks, for the config here
        from autoresearch.optimizer.commands.validating import configured

        return partial(configured, find_config(Path(DEFAULT_CONFIG)), None, args[1:] == ["--json"])
    if not args or args[0] != "status":
        return None
    name: str | None = None
    config, as_json = Path(DEFAULT_CONFIG), False
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--json":
            as_json = True
        elif arg in ("--config", "-c"):
            value = next(rest, None)
            if value is None:
                return None
            config = Path(value)
        elif arg.startswith("--config="):
            config = Path(arg.removeprefix("--config="))
        elif arg.startswith("-") or name is not None:
            return None
        else:
            name = arg
    from autoresearch.optimizer.commands.showstatus import show

    return partial(show, name, find_config(config), as_json)
