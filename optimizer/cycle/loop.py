"""The optimization loop: cycles until a stop rule, a limit or a signal, then a final report.

The loop only moves paths and small numbers; it never reads eval transcripts
and never calls an LLM itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from autoresearch.optimizer.cycle import engine, stops
from autoresearch.optimizer.cycle.batch import Batch
from autoresearch.optimizer.cycle.decide import is_better
from autoresearch.optimizer.cycle.gating import unmeasured
from autoresearch.optimizer.cycle.head import original, rebaseline
from autoresearch.optimizer.cycle.record import record, write_chart
from autoresearch.optimizer.daemonlog import bind, file_only, get
from autoresearch.optimizer.experiment.digest import Digest
from autoresearch.optimizer.experiment.history import Past
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.experiment.state import Status
from autoresearch.optimizer.gitrepo.handles import release
from autoresearch.plumbing import faults, heap
from autoresearch.plumbing.errors import Interrupted, NoRoom
from autoresearch.policies import gates
from autoresearch.policies.stop import INTERRUPTIONS, StopReason
from autoresearch.runs.evaluators.registry import kind_of, unread_files
from autoresearch.runs.results import INDEX

if TYPE_CHECKING:  # the built-in runner is imported by a run of an eval file alone
    from autoresearch.runs.runner.filerefs import Unread

# libgit2 caches every commit and tree the repository reads (up to 256 MiB, 0.7 KiB a cycle that Python never
# sees); the repository is opened anew after this many cycles instead (0.1 ms, and its pack index read again)
RELEASE_EVERY = 10

STATUS_AT_END: dict[StopReason, Status] = {"interrupted": "stopped", "failed": "failed"}  # any other reason: finished


@dataclass(frozen=True)
class Outcome:
    stop_reason: StopReason
    improved: bool  # this run's best beats what the run started from (the original, in a first run)
    cycles: int  # the cycles this run made (a run continued after an interruption counts its earlier part)
    safety_blocked: bool = False  # the safety gate blocked a candidate the rule would have kept, and none was kept

    @property
    def succeeded(self) -> bool:
        """Exit 0: the run improved the artifact, or made cycles and the best reached stop.target_score.
        A run that made no cycle never succeeds, whatever the experiment did before."""
        return self.cycles > 0 and (self.improved or self.stop_reason == "target")


def run(session: Session) -> Outcome:
    """Run cycles until a stop; the tree is at HEAD (autoresearch.optimizer.cycle.tree) and the chart final whatever ends it."""
    log = get()
    bind(experiment=session.config.experiment_name)
    session.state_writer.now(session.state)  # "running" is on disk before the artifact is ever touched
    reason: StopReason = "failed"
    ended: stops.RunStopped | None = None
    no_room: NoRoom | None = None  # the first write a full disk refused: what the user is told, not the next one
    try:
        unread = _warn_unread_files(session)
        if not session.history:
            bind(cycle=1)
            record(session, original(session))
            write_chart(session, live=True)
            _warn_if_degenerate(session, unread)
        _warn_unmeasured(session)
        _cycle_until_stop(session)
    except stops.RunStopped as stop:
        reason, ended = stop.reason, stop
    except Interrupted:
        reason = "interrupted"
        raise
    except Exception as exc:  # logged, not handled: daemon.log must say why a run ended, whoever reads it later
        no_room = exc if isinstance(exc, NoRoom) else None
        file_only().error("run failed", error=str(exc) or type(exc).__name__)
        raise
    finally:
        try:
            _finish(session, reason)
        except NoRoom:
            if no_room is None:
                raise
    log.info("finished", stop_reason=reason, cycle=session.history.last_cycle or None, phase="done")
    if ended is not None and ended.exit_code is not None:  # a stop that is a failure: its exit code
        raise ended
    run = session.history.since(session.state.run_start_cycle)
    return Outcome(reason, _improved(session), len(run), safety_blocked(run))


def safety_blocked(records: list[Past]) -> bool:
    """Exit 20: the safety gate kept out a candidate the rule would have kept, and no candidate was kept."""
    return any(r.gate == gates.SAFETY for r in records) and not _kept_a_candidate(records)


def _kept_a_candidate(records: list[Past]) -> bool:
    return any(r.decision == "keep" and not r.measures_head for r in records)


def _cycle_until_stop(session: Session) -> None:
    """Cycles (autoresearch.optimizer.cycle.engine) until one of `stops` is raised. With several candidates, a
    cycle may hand the next one the batch it mutated ahead; the loop owns it in between, and discards it when
    the run stops.
    Before each cycle the digest of what was tried is written anew: the mutators are handed it."""
    limits = stops.limits_of(session)
    memory = Digest(session.paths)
    ahead: Batch | None = None
    try:
        while True:
            memory.write()  # the lines appended since its last write
            stops.check(session, limits)
            number = session.history.last_cycle + 1
            bind(cycle=number)
            if session.stale_baseline:  # before any decision, and only once the stop rules let the run go on
                _rebaseline(session)
            else:
                ahead, handed = None, ahead
                ahead = engine.cycle(session, number, handed)
            write_chart(session, live=True)  # out of the cycle's critical blocks: a signal never waits on it
            if number % RELEASE_EVERY == 0:
                release(session.ws)
            heap.give_back()  # what the cycle freed: kept by the C library, it was most of a night's growth
    finally:
        if ahead is not None:
            engine.discard(session, ahead)


def _rebaseline(session: Session) -> None:
    """HEAD's results came from another eval: HEAD is measured again, on a line of its own, before any decision."""
    best = session.history.best
    said = "name no eval (an older version wrote them)" if best and best.eval_key is None else "came from another eval"
    get().warning(f"HEAD's results (cycle {best.cycle if best else '?'}) {said}: measuring HEAD again first")
    record(session, rebaseline(session))
    _warn_unmeasured(session)


def _warn_unread_files(session: Session) -> list[Unread]:
    """A `cli` target whose command never reads the files its prompt only names (AgentV's `<file: path=...>`
    references) scores 0 on the tests that need them, with no other hint: said once, at the start."""
    unread = unread_files(session.evaluator)
    for target in unread:
        get().warning(str(target))
    return unread


def _warn_if_degenerate(session: Session, unread: list[Unread]) -> None:
    scores = {round(float(r["score"]), 9) for r in session.baseline_rows}
    if session.config.eval.metric is None and scores in ({0.0}, {1.0}):
        which = (
            "0 on every test (is the eval broken?)" if scores == {0.0} else "1 on every test (nothing left to teach)"
        )
        fix = f": {_likely_fix(session, unread)}" if scores == {0.0} else ""
        get().warning(f"the original artifact scores {which}; a night spent on this eval is probably wasted{fix}")
        session.warn(f"original scores {which}")


def _likely_fix(session: Session, unread: list[Unread]) -> str:
    """Where a zero on every test most likely comes from: a target that never saw its files, else what
    the baseline's run directory shows of each test."""
    if unread:
        return f"target {unread[0].target!r} never reads the files its prompt names by path (see the warning above)"
    run_dir = session.paths.run_dir(session.history.last.run_dir if session.history.last else "")
    if kind_of(session.config.eval) == "file":  # the built-in runner's
        return f"read what a test asked and what its target answered (input.md, outputs/response.md) under {run_dir}"
    return f"read each test's row (its assertions and error) in {run_dir / INDEX}"


def _warn_unmeasured(session: Session) -> None:
    """Weights or gates on what the eval never reports weigh nothing and block nothing: said once, at the start."""
    missing = unmeasured(session.config, session.baseline_rows)
    if missing:
        get().warning(f"the eval does not report what these need, so they do nothing: {', '.join(missing)}")
        session.warn(f"not measured by the eval: {', '.join(missing)}")


def _improved(session: Session) -> bool:
    """Whether this run's best beats the best it started from (the original, for an experiment's first run)."""
    h = session.history
    if session.config.objectives:  # each KEEP beat its HEAD on the composite, a score with no absolute scale
        return _kept_a_candidate(h.since(session.state.run_start_cycle))
    start = h.start_of_run(session.state.run_start_cycle)
    return bool(h.best and start and is_better(session.config.eval.goal, h.best.score, start.score))


def _finish(session: Session, reason: StopReason) -> None:
    """The run's end on disk, then its final page. A disk with no room for them, once a stop rule ended the
    run, says so: that run does not resume. Without its end on disk, `run` finds it running and ends it (the
    same rule stops it before any cycle); with it, `run` would start a new run: `chart` writes the page."""
    finished = reason not in INTERRUPTIONS
    faults.point("before-finish")
    try:
        session.finish(STATUS_AT_END.get(reason, "finished"), reason)
    except NoRoom as exc:
        raise exc.ending(f"then `run` records the end of the run, which had finished ({reason})") if finished else exc
    try:
        write_chart(session, live=False)
    except NoRoom as exc:
        raise exc.ending(f"then `chart` writes the page of the run, which has finished ({reason})") if finished else exc
