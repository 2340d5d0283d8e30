"""Writing a decision down before moving on: the iterations line first, then state.json; the chart after.

The cycle calls `record` inside the same `signals.critical()` block as the git
operation it records (a KEEP's commit, a DISCARD's restore), so a signal can
never separate a commit from its line. The chart is derived from the lines and
may be redrawn at any time: the loop draws it after the block (`write_chart`), so
that a signal never waits on a page render.
"""

from __future__ import annotations

import math
from typing import Any

from autoresearch.optimizer import notify, tracking
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle import pending
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment import holdout
from autoresearch.optimizer.experiment.session import Session
from autoresearch.plumbing import faults
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.runs.results import rows_digest
from autoresearch.trajectory import chartdata, page
from autoresearch.trajectory.iterations import Iteration

BUDGET_WARNINGS = (0.5, 0.8)


def record(session: Session, entry: Iteration) -> None:
    """Write the decision down before moving on: the line, then the state (the chart is the loop's, after)."""
    previous_spend = session.history.spent_usd
    entry = sealed(session.paths, entry, session.holdout.sha256 if session.holdout else None)
    faults.point("before-append")
    session.ledger.append(entry)
    if entry.decision == "keep":  # only a KEEP's line is written down before its commit (`pending.commit`):
        pending.clear(session.paths)  # now written; a DROP or an error writes nothing over the blank file
    faults.point("after-append")
    session.recorded(entry)
    faults.point("after-state")
    _warn_budget(session, previous_spend)
    get().info(
        entry.decision,
        score=round(entry.score, 4),
        **({"partial": f"score {entry.partial}"} if entry.partial else {}),
        **_compared(entry),
        mutation=entry.mutation,
    )
    notify.kept(entry)
    tracking.cycle(entry)  # queued: no wait inside the critical block


def _compared(entry: Iteration) -> dict[str, Any]:
    """The comparison's figures the line has, as `model_dump(include=..., exclude_none=True)` gave them (a
    mean delta that is not a finite number as None) without its cost a line."""
    delta = entry.mean_delta
    figures = {"wins": entry.wins, "losses": entry.losses, "ties": entry.ties, "mean_delta": delta}
    shown: dict[str, Any] = {name: value for name, value in figures.items() if value is not None}
    if delta is not None and not math.isfinite(delta):
        shown["mean_delta"] = None
    return shown


def sealed(paths: ExperimentPaths, entry: Iteration, split: str | None) -> Iteration:
    """A KEEP's line with its rows' digest, and with a holdout its held-out rows' and the split's (`split`, the
    digest of holdout.json as the daemon holds it, never the file read again): the next run's baselines and
    which tests it hides, which a resume checks unchanged."""
    if entry.decision != "keep":
        return entry
    held = rows_digest(holdout.root(paths.results_dir, paths.root.name) / entry.run_dir) if entry.run_dir else None
    return entry.model_copy(
        update={
            "rows_sha256": rows_digest(paths.run_dir(entry.run_dir)),
            "holdout_rows_sha256": held,
            "holdout_sha256": split,
        }
    )


def _warn_budget(session: Session, before: float) -> None:
    budget = session.config.stop.budget_usd
    after = session.history.spent_usd
    for mark in BUDGET_WARNINGS:
        if budget and before < mark * budget <= after:
            get().warning(f"{int(mark * 100)}% of the budget spent", spent_usd=round(after, 4), budget_usd=budget)


def write_chart(session: Session, live: bool) -> None:
    """The live page every few seconds at most, less often as it grows (see Session.chart_due); the final
    page always."""
    if not session.chart_due(live):
        return
    records, bad = session.chart_rows.read()  # the lines appended since the last page, not the whole night
    status = "running" if live else f"{session.state.status} ({session.state.stop_reason})"
    page.write(
        session.paths.chart,
        page.PageData(
            session.config.experiment_name,
            records,
            bad,
            status=status,
            live=live,
            state=session.state.model_dump(),
            reading=reading(session.config),
            kept_scores=session.chart_scores,
            kept_rows=session.chart_table,
        ),
    )
    session.chart_written()


def reading(config: Config) -> chartdata.Reading:
    """How the page reads this experiment's scores: a metric's value and goal, or 0-1 scores."""
    return chartdata.Reading(metric=config.eval.metric is not None, goal=config.eval.goal)
