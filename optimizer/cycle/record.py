"""Writing a decision down before moving on: the iterations line first, then state.json and the chart.

The cycle calls `record` inside the same `signals.critical()` block as the git
operation it records (a KEEP's commit, a DISCARD's restore), so a signal can
never separate a commit from its line.
"""

from __future__ import annotations

import time

from optimizer import faults
from optimizer.experiment import state as state_file
from optimizer.experiment.history import History
from optimizer.daemonlog import get
from optimizer.experiment.session import Session
from trajectory import iterations, page
from trajectory.iterations import Iteration

BUDGET_WARNINGS = (0.5, 0.8)
CHART_INTERVAL_S = 3.0


def record(session: Session, entry: Iteration) -> None:
    """Write the decision down before moving on: the line, then the state and the chart."""
    previous_spend = session.history.spent_usd
    faults.point("before-append")
    iterations.append(session.paths.iterations, entry)
    faults.point("after-append")
    session.history = History([*session.history.records, entry])
    _update_state(session, entry)
    faults.point("after-state")
    _warn_budget(session, previous_spend)
    get().info(
        entry.decision,
        score=round(entry.score, 4),
        **{k: getattr(entry, k) for k in ("wins", "losses", "ties", "mean_delta") if hasattr(entry, k)},
        mutation=entry.mutation,
    )
    write_chart(session, live=True)


def _update_state(session: Session, entry: Iteration) -> None:
    st = session.state
    state_file.summarize(st, session.history)
    st.last_cycle_s = getattr(entry, "duration_s", None)
    st.phase = "idle"
    session.state_writer.soon(st)


def _warn_budget(session: Session, before: float) -> None:
    budget = session.config.stop.budget_usd
    after = session.history.spent_usd
    for mark in BUDGET_WARNINGS:
        if budget and before < mark * budget <= after:
            get().warning(f"{int(mark * 100)}% of the budget spent", spent_usd=round(after, 4), budget_usd=budget)


def write_chart(session: Session, live: bool) -> None:
    """The live page reloads itself every 10 s, so rewriting it more often than every few seconds
    only costs the loop time (it grows with the history); the final page is always written."""
    now = time.monotonic()
    if live and now - session.chart_written_at < CHART_INTERVAL_S:
        return
    session.chart_written_at = now
    records, bad = iterations.read(session.paths.iterations)
    status = "running" if live else f"{session.state.status} ({session.state.stop_reason})"
    page.write(
        session.paths.chart,
        page.PageData(
            session.config.experiment_name, records, bad, status=status, live=live, state=session.state.model_dump()
        ),
    )
