"""`autoresearch run`: the loop in the foreground, one status line per phase, a summary at the end."""

from __future__ import annotations

from pathlib import Path

import typer

from optimizer.commands.common import ConfigOption, QuietOption, config_dir, load, setup_logging
from optimizer.errors import NO_IMPROVEMENT, OK


def command(
    config: Path = ConfigOption,
    experiment: str = typer.Option(None, help="Experiment name (default: from the config)."),
    artifact: str = typer.Option(None, help="File or directory to improve, relative to the repository root."),
    max_cycles: int = typer.Option(None, help="Stop after this many cycles in all (0 = no limit)."),
    max_convergence: int = typer.Option(None, help="Stop after this many cycles in a row without a KEEP."),
    rule: str = typer.Option(None, help="Keep rule: wins-losses or score."),
    threshold: float = typer.Option(None, help="Win/loss threshold per test (as agentv compare)."),
    budget_usd: float = typer.Option(None, help="Stop before a cycle that would spend past this (eval + mutation)."),
    until: str = typer.Option(None, help="Deadline: 07:00 (next local) or an ISO time; no cycle starts that would cross it."),
    max_hours: float = typer.Option(None, help="Start no cycle after this many hours."),
    results_dir: str = typer.Option(None, help="Where results go, relative to the repository root."),
    restart: bool = typer.Option(False, "--restart", help="Start the experiment over (the old one is kept aside)."),
    quiet: bool = QuietOption,
) -> int:
    """Run the optimization loop in the foreground.

    Resumes the experiment if it has history. Exit codes: 0 improved, 10 no
    improvement, 20 safety stop, 30 invalid input, 40 eval/mutator kept
    failing, 50 integrity error, 130 interrupted.
    """
    from optimizer import loop, signals
    from optimizer.commands.report import print_summary
    from optimizer.session import open_session

    overrides = {
        "experiment": experiment,
        "artifact": artifact,
        "stop.max_cycles": max_cycles,
        "stop.max_convergence": max_convergence,
        "policy.rule": rule,
        "policy.threshold": threshold,
        "stop.budget_usd": budget_usd,
        "stop.until": until,
        "stop.max_hours": max_hours,
        "results_dir": results_dir,
    }
    cfg = load(config, overrides)
    setup_logging(quiet=quiet)
    signals.install()
    session = open_session(cfg, config_dir(config), restart=restart)
    setup_logging(session.paths.log, quiet=quiet)
    try:
        outcome = loop.run(session)
    finally:
        session.close()
    print_summary(session.paths, session.ws, cfg)
    return OK if outcome.improved else NO_IMPROVEMENT
