"""The optimization loop: cycles until a stop rule, a limit or a signal, then a final report.

The loop only moves paths and small numbers; it never reads eval transcripts
and never calls an LLM itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import structlog

from mutators.errors import MutationsExhausted
from optimizer import cycle as cycles
from optimizer import faults
from optimizer.decide import is_better
from optimizer.errors import Interrupted, KeepsFailing, SafetyStop
from optimizer.history import History
from optimizer.logs import file_only, get
from optimizer.session import Session
from optimizer.workspace import restore_artifact
from policies.stop import Limits, budget_stop, stop_reason, time_stop
from trajectory import iterations, page
from trajectory.iterations import Iteration

BUDGET_WARNINGS = (0.5, 0.8)
CHART_INTERVAL_S = 3.0


@dataclass(frozen=True)
class Outcome:
    stop_reason: str
    improved: bool


def run(session: Session) -> Outcome:
    """Run cycles until a stop; the tree is at HEAD and the chart final whatever ends it."""
    log = get()
    structlog.contextvars.bind_contextvars(experiment=session.config.experiment_name)
    session.state_writer.now(session.state)  # "running" is on disk before the artifact is ever touched
    reason = "failed"
    try:
        if not session.history.records:
            structlog.contextvars.bind_contextvars(cycle=1)
            _record(session, cycles.original(session))
            _warn_if_degenerate(session)
        reason = _cycle_until_stop(session)
    except Interrupted:
        reason = "interrupted"
        # a signal sent to the whole process group also ended git's helper processes: start afresh
        session.ws.repo.git.clear_cache()
        raise
    except Exception as exc:  # logged, not handled: daemon.log must say why a run ended, whoever reads it later
        file_only().error("run failed", error=str(exc) or type(exc).__name__)
        raise
    finally:
        restore_artifact(session.ws)
        _finish(session, reason)
    improved = _improved(session)
    log.info("finished", stop_reason=reason, cycle=session.history.last_cycle or None, phase="done")
    if reason == "out-of-scope":
        raise SafetyStop("stopped: the mutator changed files outside the artifact 3 times; see daemon.log")
    if reason == "errors":
        raise KeepsFailing(f"stopped: 3 cycles in a row failed; last error: {session.history.records[-1].error}")
    return Outcome(reason, improved)


def _cycle_until_stop(session: Session) -> str:
    stop = session.config.stop
    limits = Limits(max_cycles=stop.max_cycles, max_convergence=stop.max_convergence)
    while True:
        history = session.history
        reason = (
            stop_reason(history.progress(), limits)
            or budget_stop(history.spent_usd, history.expected_cycle_cost(), stop.budget_usd)
            or time_stop(time.time(), session.deadline_s, history.expected_cycle_s())
            or cycles.stop_requested(session)
        )
        if reason:
            return reason
        number = history.last_cycle + 1
        structlog.contextvars.bind_contextvars(cycle=number)
        try:
            record = cycles.candidate(session, number)
        except MutationsExhausted:
            return "mutations-exhausted"
        except cycles.StopRequested:
            return "stop-requested"
        _record(session, record)


def _record(session: Session, record: Iteration) -> None:
    """Write the decision down before moving on: the line, then the state and the chart."""
    previous_spend = session.history.spent_usd
    faults.point("before-append")
    iterations.append(session.paths.iterations, record)
    faults.point("after-append")
    session.history = History([*session.history.records, record])
    _update_state(session, record)
    faults.point("after-state")
    _warn_budget(session, previous_spend)
    get().info(
        record.decision,
        score=round(record.score, 4),
        **{k: getattr(record, k) for k in ("wins", "losses", "ties", "mean_delta") if hasattr(record, k)},
        mutation=record.mutation,
    )
    _write_chart(session, live=True)


def _update_state(session: Session, record: Iteration) -> None:
    st, history = session.state, session.history
    best = history.best
    st.cycle = record.cycle
    st.keeps, st.drops, st.errors = history.count("keep"), history.count("drop"), history.count("error")
    st.original_score = history.original.score if history.original else None
    st.best_score, st.best_cycle = (best.score, best.cycle) if best else (None, None)
    st.baseline_run = best.run_dir if best else None
    st.cost_usd = round(history.spent_usd, 6)
    st.last_cycle_s = getattr(record, "duration_s", None)
    st.phase = "idle"
    session.state_writer.soon(st)


def _warn_budget(session: Session, before: float) -> None:
    budget = session.config.stop.budget_usd
    after = session.history.spent_usd
    for mark in BUDGET_WARNINGS:
        if budget and before < mark * budget <= after:
            get().warning(f"{int(mark * 100)}% of the budget spent", spent_usd=round(after, 4), budget_usd=budget)


def _warn_if_degenerate(session: Session) -> None:
    scores = {round(float(r["score"]), 9) for r in session.baseline_rows}
    if session.config.eval.metric is None and scores in ({0.0}, {1.0}):
        which = "0 on every test (is the eval broken?)" if scores == {0.0} else "1 on every test (nothing left to teach)"
        get().warning(f"the original artifact scores {which}; a night spent on this eval is probably wasted")
        session.state.warning = f"original scores {which}"


def _improved(session: Session) -> bool:
    h = session.history
    return bool(h.best and h.original and is_better(session.config.eval.goal, h.best.score, h.original.score))


def _finish(session: Session, reason: str) -> None:
    st = session.state
    st.status = {"interrupted": "stopped", "failed": "failed"}.get(reason, "finished")
    st.stop_reason = reason
    st.phase = "done"
    session.state_writer.now(st)
    _write_chart(session, live=False)


def _write_chart(session: Session, live: bool) -> None:
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
