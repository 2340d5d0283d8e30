"""One module per subcommand; each exposes a typer-compatible function that returns an exit code.

The table below is the whole registry: add a command by adding its module
and one line here. A module is imported only when its command is parsed (see `load`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

# name -> (module under autoresearch.optimizer.commands, its function); each function returns its exit code
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("run", "command"),
    "start": ("run", "start"),
    "stop": ("stop", "command"),
    "status": ("status", "command"),
    "logs": ("logs", "command"),
    "schedule": ("schedule", "command"),
    "init": ("init", "command"),
    "eval": ("eval_cmd", "command"),
    "compare": ("compare", "command"),
    "report": ("report", "command"),
    "demo": ("demo", "command"),
    "serve": ("serve", "command"),
    "chart": ("chart", "command"),
    "validate": ("validate", "command"),
    "log": ("cycles", "command"),
    "rollback": ("rollback", "command"),
    "promote": ("promote", "command"),
    "finalize": ("finalize", "command"),
    "diff": ("diff", "command"),
}


def load(name: str) -> Callable[..., int]:
    """The function of the command `name`, its module imported now: a command's start-up pays for its own
    module alone (all of them together were a third of `status`'s)."""
    module, function = COMMANDS[name]
    command: Callable[..., int] = getattr(importlib.import_module(f"{__name__}.{module}"), function)
    return command
