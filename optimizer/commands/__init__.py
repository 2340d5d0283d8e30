"""One module per subcommand; each exposes a typer-compatible function that returns an exit code.

The table below is the whole registry: add a command by adding its module
and one line here.
"""

from __future__ import annotations

from collections.abc import Callable

from autoresearch.optimizer.commands import (
    chart,
    compare,
    cycles,
    demo,
    diff,
    eval_cmd,
    finalize,
    init,
    logs,
    promote,
    report,
    rollback,
    run,
    schedule,
    serve,
    status,
    stop,
    validate,
)

COMMANDS: dict[str, Callable[..., int]] = {  # each returns its exit code
    "run": run.command,
    "start": run.start,
    "stop": stop.command,
    "status": status.command,
    "logs": logs.command,
    "schedule": schedule.command,
    "init": init.command,
    "eval": eval_cmd.command,
    "compare": compare.command,
    "report": report.command,
    "demo": demo.command,
    "serve": serve.command,
    "chart": chart.command,
    "validate": validate.command,
    "log": cycles.command,
    "rollback": rollback.command,
    "promote": promote.command,
    "finalize": finalize.command,
    "diff": diff.command,
}
