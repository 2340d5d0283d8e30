"""`autoresearch run` (the loop in the foreground) and `autoresearch start` (the same, detached)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import typer

from autoresearch.optimizer.commands import running
from autoresearch.optimizer.commands.options import ConfigOption, QuietOption


def command(
    config: Path = ConfigOption,
    experiment: str = typer.Option(None, help="Experiment name (default: from the config)."),
    artifact: str = typer.Option(None, help="File or directory to improve, relative to the repository root."),
    max_cycles: int = typer.Option(None, help="Stop after this many cycles of this run (0 = no limit)."),
    max_convergence: int = typer.Option(None, help="Stop after this many cycles in a row without a KEEP."),
    target_score: float = typer.Option(None, help="Stop (exit 0) once the best score reaches this."),
    rule: str = typer.Option(None, help="Keep rule: wins-losses, score or significant."),
    threshold: float = typer.Option(None, help="Win/loss threshold per test (as agentv compare)."),
    budget_usd: float = typer.Option(None, help="Stop before a cycle that would spend past this (eval + mutation)."),
    until: str = typer.Option(
        None, help="Deadline: 07:00 (next local) or an ISO time; no cycle starts that would cross it."
    ),
    max_hours: float = typer.Option(None, help="Start no cycle after this many hours."),
    results_dir: str = typer.Option(None, help="Where results go, relative to the repository root."),
    worktree: bool = typer.Option(
        None, "--worktree/--no-worktree", help="Run in a git worktree on branch autoresearch/<experiment>."
    ),
    cache: bool = typer.Option(
        None, "--cache/--no-cache", help="Reuse stored eval samples of the same artifact and eval."
    ),
    restart: bool = typer.Option(False, "--restart", help="Start the experiment over (the old one is kept aside)."),
    quiet: bool = QuietOption,
    detach: bool = typer.Option(
        False, "--detach", help="Check everything here, then run in the background (as `start`)."
    ),
    daemon: bool = typer.Option(False, "--daemon", hidden=True, help="Internal: this is the detached process."),
) -> int:
    """Run the optimization loop in the foreground (or, with --detach, in the background).

    Resumes the experiment if it has history: each run may make up to
    --max-cycles new cycles. Exit codes: 0 this run improved the artifact (or
    reached --target-score), 10 no improvement or no cycle, 20 safety stop, 30
    invalid input, 40 eval/mutator kept failing, 50 integrity error, 130
    interrupted. Every exit of a run on an existing experiment prints its summary.
    """
    overrides = {
        "experiment": experiment,
        "artifact": artifact,
        "stop.max_cycles": max_cycles,
        "stop.max_convergence": max_convergence,
        "stop.target_score": target_score,
        "policy.rule": rule,
        "policy.threshold": threshold,
        "stop.budget_usd": budget_usd,
        "stop.until": until,
        "stop.max_hours": max_hours,
        "results_dir": results_dir,
        "worktree": worktree,
        "cache": cache,
    }
    return running.run(config, overrides, restart=restart, quiet=quiet, detach=detach, daemon=daemon)


def start(**options: Any) -> int:  # run's options, bar two: its signature is run's
    """Check everything a run needs here, then run the loop in the background (same as `run --detach`).

    Prints the daemon's pid and where its log and chart are; exits 30 (and
    starts nothing) when the config, the repository or the keys are not right.
    """
    return command(**options, detach=True, daemon=False)


_hidden = {"detach", "daemon"}
start.__signature__ = inspect.signature(command).replace(  # type: ignore[attr-defined]
    parameters=[p for p in inspect.signature(command).parameters.values() if p.name not in _hidden]
)
start.__annotations__ = {k: v for k, v in command.__annotations__.items() if k not in _hidden}
