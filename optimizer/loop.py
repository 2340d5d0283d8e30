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
from optimizer.decide import is_better
from plumbing.errors import Interrupted, KeepsFailing, SafetyStop
from optimizer.logs import file_only, get
from optimizer.record import record, write_chart
from optimizer.session import Session
from optimizer.workspace import restore_artifact
from policies.stop import Limits, budget_stop, stop_reason, time_stop


@dataclass(frozen=True)
class Outcome:
    stop_reason: str
    improved: bool  # this run's best beats what the run started from (the original, in a first run)
    cycles: int  # the cycles this run made (a run continued after an interruption counts its earlier part)

    @property
    def succeeded(self) -> bool:
        """Exit 0: the run improved the artifact, or made cycles and the best reached stop.target_score.
        A run that made no cycle never succeeds, whatever the experiment did before."""
        return self.cycles > 0 and (self.improved or self.stop_reason == "target")


def run(session: Session) -> Outcome:
    """Run cycles until a stop; the tree is at HEAD and the chart final whatever ends it."""
    log = get()
    structlog.contextvars.bind_contextvars(experiment=session.config.experiment_name)
    session.state_writer.now(session.state)  # "running" is on disk before the artifact is ever touched
    reason = "failed"
    try:
        if not session.history.records:
            structlog.contextvars.bind_contextvars(cycle=1)
            record(session, cycles.original(session))
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
    log.info("finished", stop_reason=reason, cycle=session.history.last_cycle or None, phase="done")
    if reason == "out-of-scope":
        raise SafetyStop("stopped: the mutator changed files outside the artifact 3 times; see daemon.log")
    if reason == "errors":
        raise KeepsFailing(f"stopped: 3 cycles in a row failed; last error: {session.history.records[-1].error}")
    run = session.history.since(session.state.run_start_cycle)
    return Outcome(reason, _improved(session), len(run.records))


def _cycle_until_stop(session: Session) -> str:
    stop = session.config.stop
    limits = Limits(
        max_cycles=stop.max_cycles,
        max_convergence=stop.max_convergence,
        target_score=stop.target_score,
        minimize=session.config.eval.goal == "minimize",
    )
    while True:
        history = session.history
        reason = (
            stop_reason(history.progress(session.state.run_start_cycle), limits)
            or budget_stop(history.spent_usd, history.expected_cycle_cost(), stop.budget_usd)
            or time_stop(time.time(), session.deadline_s, history.expected_cycle_s())
            or cycles.stop_requested(session)
        )
        if reason:
            return reason
        number = history.last_cycle + 1
        structlog.contextvars.bind_contextvars(cycle=number)
        try:
            cycles.candidate(session, number)
        except MutationsExhausted:
            return "mutations-exhausted"
        except cycles.StopRequested:
            return "stop-requested"


def _warn_if_degenerate(session: Session) -> None:
    scores = {round(float(r["score"]), 9) for r in session.baseline_rows}
    if session.config.eval.metric is None and scores in ({0.0}, {1.0}):
        which = "0 on every test (is the eval broken?)" if scores == {0.0} else "1 on every test (nothing left to teach)"
        get().warning(f"the original artifact scores {which}; a night spent on this eval is probably wasted")
        session.state.warning = f"original scores {which}"


def _improved(session: Session) -> bool:
    """Whether this run's best beats the best it started from (the original, for an experiment's first run)."""
    h = session.history
    start = h.best_until(session.state.run_start_cycle) or h.original
    return bool(h.best and start and is_better(session.config.eval.goal, h.best.score, start.score))


def _finish(session: Session, reason: str) -> None:
    st = session.state
    st.status = {"interrupted": "stopped", "failed": "failed"}.get(reason, "finished")
    st.stop_reason = reason
    st.phase = "done"
    session.state_writer.now(st)
    write_chart(session, live=False)
