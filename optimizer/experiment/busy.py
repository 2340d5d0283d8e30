"""Which daemons work in this checkout right now: mid-cycle, the working tree holds their candidate.

Read from the experiments' locks (who runs) and state.json (`branch` is set
when a daemon works in a worktree of its own and leaves this checkout alone).
"""

from __future__ import annotations

from pathlib import Path

from autoresearch.optimizer.experiment.lockfile import held_by
from autoresearch.optimizer.experiment.overview import experiments, read_json
from autoresearch.plumbing.errors import InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths


def in_this_checkout(results: Path) -> dict[str, str]:
    """{experiment: 'pid N since T'} for each daemon working in this checkout's tree."""
    found = {}
    for name in experiments(results):
        paths = ExperimentPaths.at(results, name)
        who = held_by(paths.lock)
        if who is not None and not (read_json(paths.state) or {}).get("branch"):
            found[name] = who
    return found


def other_running(results: Path, experiment: str) -> tuple[str, str] | None:
    """(experiment, 'pid N since T') of a daemon other than `experiment`'s working in this checkout's tree."""
    return next(((name, who) for name, who in in_this_checkout(results).items() if name != experiment), None)


def require_no_other(results: Path, experiment: str) -> None:
    """Refuse (exit 30) a second experiment in a checkout where one already runs: each would take the
    other's candidates for out-of-scope changes and undo them."""
    if found := other_running(results, experiment):
        name, who = found
        raise InvalidInput(
            f"experiment '{name}' is running in this checkout ({who}): two experiments in one working tree "
            f"undo each other's candidates; wait for it, stop it (`autoresearch stop {name}`), or run this one "
            "in its own worktree (--worktree)"
        )


def require_idle(results: Path, what: str) -> None:
    """Refuse (exit 30) `what` while a daemon works in this checkout: its candidate would pass for the user's work."""
    running = in_this_checkout(results)
    if running:
        name, who = next(iter(running.items()))
        raise InvalidInput(
            f"experiment '{name}' is running in this checkout ({who}): the working tree may hold its candidate, "
            f"so {what}; wait for it, follow it with `autoresearch status {name}`, or stop it (`autoresearch stop {name}`)"
        )
