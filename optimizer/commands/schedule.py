"""`autoresearch schedule --cron ...`: run the experiment at each cron firing, resuming it each time."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import load, setup_logging
from autoresearch.optimizer.commands.options import ConfigOption, QuietOption
from autoresearch.plumbing.errors import OK
from autoresearch.plumbing.repo import config_dir

if TYPE_CHECKING:
    from autoresearch.optimizer.daemon.scheduler import Plan


def command(
    cron: str = typer.Option(
        ..., "--cron", help="When to run, as a crontab line's times: 'minute hour day month weekday', e.g. '0 1 * * *'."
    ),
    config: Path = ConfigOption,
    experiment: str = typer.Option(None, help="Experiment name (default: from the config)."),
    max_cycles: int = typer.Option(None, help="At most this many cycles per run."),
    max_hours: float = typer.Option(None, help="Each run starts no cycle after this many hours."),
    lifetime: str = typer.Option(
        None, "--for", help="Stop scheduling after this long: 90m, 6h, 2d (default: until stopped)."
    ),
    tz: str = typer.Option(
        None, "--tz", help="Time zone of the cron times, e.g. Europe/Paris (default: this machine's)."
    ),
    grace: str = typer.Option(
        "1h", "--grace", help="A firing missed while the machine slept still runs if it wakes within this."
    ),
    quiet: bool = QuietOption,
    detach: bool = typer.Option(
        False, "--detach", help="Check everything here, then schedule in the background and print the pid."
    ),
    daemon: bool = typer.Option(False, "--daemon", hidden=True, help="Internal: this is the detached process."),
) -> int:
    """Start a run of the experiment at each cron firing, resuming where the last run stopped.

    Never two runs at once: a firing while a run is still going is skipped
    and logged. A firing missed while the machine slept runs once on wake if
    within --grace. `autoresearch status` lists the scheduler; SIGTERM (or
    `autoresearch stop`) ends it and the run in progress, restoring the tree.
    """
    from autoresearch.optimizer.daemon import scheduler

    plan = _plan(config, experiment, cron, tz, grace, lifetime, max_cycles, max_hours)
    if detach:
        return _detach(plan, config, quiet)
    setup_logging(quiet=quiet)
    plan.paths.root.mkdir(parents=True, exist_ok=True)
    setup_logging(plan.paths.log, quiet=quiet, console=not daemon)
    return scheduler.serve(plan)


def _plan(
    config: Path,
    experiment: str | None,
    cron: str,
    tz: str | None,
    grace: str,
    lifetime: str | None,
    max_cycles: int | None,
    max_hours: float | None,
) -> Plan:
    """Everything checked here, in the foreground, so a mistake fails loudly before anything detaches."""
    from autoresearch.optimizer.daemon import scheduler
    from autoresearch.optimizer.experiment.lockfile import holder
    from autoresearch.optimizer.gitrepo.workspace import open_workspace
    from autoresearch.optimizer.startup import checks
    from autoresearch.plumbing.errors import InvalidInput

    cfg = load(config, {"experiment": experiment})
    ws = open_workspace(config_dir(config), cfg.artifact)
    checks.preflight(cfg, ws.root)  # a schedule whose eval cannot run would fail every night, unseen
    scheduler.make_trigger(cron, tz)
    plan = scheduler.Plan(
        config=config.resolve(),
        repo=ws.root,
        experiment=cfg.experiment_name,
        results=ws.root / cfg.results_dir,
        cron=cron,
        tz=tz,
        grace_s=scheduler.parse_duration(grace, "--grace"),
        max_cycles=max_cycles,
        max_hours=max_hours,
        lifetime_s=scheduler.parse_duration(lifetime, "--for") if lifetime else None,
    )
    pid = holder(plan.paths.lock)
    if pid is not None:
        raise InvalidInput(f"experiment '{plan.experiment}' already has a scheduler (pid {pid}); stop it first")
    return plan


def _detach(plan: Plan, config: Path, quiet: bool) -> int:
    """The same command in a new session (stdin /dev/null, output to schedule.log); prints its pid."""
    from autoresearch.optimizer.daemon import scheduler, spawn

    args = [
        "schedule",
        "--config",
        str(plan.config),
        "--experiment",
        plan.experiment,
        "--cron",
        plan.cron,
        "--grace",
        f"{plan.grace_s:g}s",
        "--daemon",
        *(["--quiet"] if quiet else []),
    ]
    for flag, value in (
        ("--tz", plan.tz),
        ("--max-cycles", plan.max_cycles),
        ("--max-hours", plan.max_hours),
        ("--for", f"{plan.lifetime_s:g}s" if plan.lifetime_s else None),
    ):
        args += [flag, str(value)] if value is not None else []
    proc = spawn.spawn(args, config_dir(config), plan.paths.log)
    code = spawn.wait_started(proc, plan.paths)
    if code is not None:
        reason = spawn.last_error(plan.paths.log) or f"the scheduler exited with code {code}; see {plan.paths.log}"
        print(f"autoresearch: {reason}")
        return code
    trigger = scheduler.make_trigger(plan.cron, plan.tz)
    first = trigger.get_next_fire_time(None, datetime.now(scheduler.zone(plan.tz)))
    print(f"scheduled experiment {plan.experiment} (pid {proc.pid}); first run at {scheduler.iso(first)}")
    print(f"  log:    {plan.paths.log}")
    print(f"  status: autoresearch status {plan.experiment}    stop: kill {proc.pid} (or autoresearch stop)")
    return OK
