"""`autoresearch report`: what an experiment did, from its files and git alone."""

from __future__ import annotations

from pathlib import Path

import typer

from typing import TYPE_CHECKING

from optimizer.commands.common import ConfigOption
from optimizer.commands.common import experiment as find_experiment

if TYPE_CHECKING:
    from optimizer.config import Config
    from optimizer.experiment import ExperimentPaths
    from optimizer.workspace import Workspace


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    config: Path = ConfigOption,
) -> int:
    """Print an experiment's summary: cycles, decisions, scores, cost, its commits, and how to adopt or revert them."""
    from optimizer.errors import InvalidInput

    cfg, ws, paths = find_experiment(experiment, config)
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{cfg.experiment_name}' has no history in {paths.root}")
    print_summary(paths, ws, cfg)
    return 0


def summary_lines(paths: "ExperimentPaths", ws: "Workspace", cfg: "Config") -> list[str]:
    from optimizer import state as state_file
    from optimizer.history import History
    from trajectory import iterations

    records, bad = iterations.read(paths.iterations)
    history = History(records)
    st = state_file.load(paths.state)
    original, best = history.original, history.best
    lines = [f"experiment {cfg.experiment_name}: {len(records)} cycles"]
    if st:
        lines[0] += f", {st.status} ({st.stop_reason or 'running'})"
    lines.append(f"  keeps {history.count('keep')}, drops {history.count('drop')}, errors {history.count('error')}")
    if original and best:
        lines.append(f"  score {original.score:.4f} (original) -> {best.score:.4f} (best, cycle {best.cycle})")
    held = [getattr(r, "holdout_score", None) for r in (original, best)]
    if None not in held:
        lines.append(f"  holdout {held[0]:.4f} (original) -> {held[1]:.4f} (best): the tests the mutator never saw")
    lines.append(f"  cost ${history.spent_usd:.4f}")
    if st and st.warning:
        lines.append(f"  warning: {st.warning}")
    if bad:
        lines.append(f"  warning: {bad} unreadable line(s) in {paths.iterations}")
    if st:
        lines.extend(_commit_lines(ws, st.initial_sha, st.branch, cfg.artifact))
    lines.append(f"  chart: {paths.chart}")
    return lines


def _commit_lines(ws: "Workspace", initial: str, branch: str | None, artifact: str) -> list[str]:
    tip = branch or "HEAD"
    log = ws.git("log", "--oneline", f"{initial}..{tip}", "--", artifact).strip()
    if not log:
        return [f"  no commits: {tip} is still the original artifact"]
    adopt = (
        f"  adopt: git merge {tip}   (the experiment ran in its own worktree and branch)"
        if branch
        else "  adopt: nothing to do, the commits are on your branch"
    )
    return [
        "  commits:",
        *(f"    {line}" for line in log.splitlines()),
        adopt,
        f"  revert: git checkout {initial[:10]} -- {artifact} && git commit -m 'Revert autoresearch'",
    ]


def print_summary(paths: "ExperimentPaths", ws: "Workspace", cfg: "Config") -> None:
    print("\n".join(summary_lines(paths, ws, cfg)))
