"""Evaluations through the result cache: every evaluation is one sample of one artifact.

A sample is looked up in the cache by (eval, artifact, sample index) first, run
and stored otherwise (autoresearch.optimizer.cycle.sequential draws several).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.early import EarlyDiscard
from autoresearch.optimizer.cycle.eval_writes import ADVICE, Evaluated, done, given, note, undo_eval_writes
from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.keys import eval_key
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import faults
from autoresearch.plumbing.errors import require_room
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.runs.cache import SampleCache
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import EvalOutcome, Evaluator, supports_watch
from autoresearch.runs.samples import write_index


def open_cache(config: Config, ws: Workspace, paths: ExperimentPaths) -> SampleCache:
    """The shared cache under the results directory; with --no-cache, a namespace of this run alone
    (the significant rule still needs the samples it draws during the run)."""
    if config.cache:
        root = paths.results_dir / "cache"
    else:
        root = paths.meta / f"samples-{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S%f')}"
    return SampleCache(root, eval_key(ws, config.eval))


@dataclass
class Spend:
    """What the evaluations of one cycle cost: runs actually made, cache hits, dollars."""

    runs: int = 0
    hits: int = 0
    cost_usd: float = 0.0
    skipped: int = 0  # tests an early discard did not run
    lost: int = 0  # `executor: ray`: attempts of its tasks lost with their node (what they spent is not known)

    def add(self, other: Spend) -> None:
        self.runs += other.runs
        self.hits += other.hits
        self.cost_usd += other.cost_usd
        self.skipped += other.skipped
        self.lost += other.lost


def evaluate(
    session: Session, run_dir: Path, watch: EarlyDiscard | None = None, evaluator: Evaluator | None = None
) -> EvalOutcome:
    """One eval run; `watch` (see autoresearch.optimizer.cycle.early) may stop an evaluator that streams its rows.
    A parallel candidate brings its own `evaluator` (run in its worktree); the session's otherwise."""
    faults.point("before-eval")
    session.set_phase("eval")
    get().info("evaluating")
    evaluator = evaluator or session.evaluator
    try:
        if watch is not None and supports_watch(evaluator):  # a capability of some evaluators
            return evaluator.run(run_dir, watch=watch)
        return evaluator.run(run_dir)
    except EvalFailed:
        require_room(run_dir, "then `run` resumes (the eval failed with no room for its output, cut short there)")
        raise


def measure(
    session: Session,
    ws: Workspace,
    run_dir: Path,
    key: str,
    n: int,
    spend: Spend,
    watch: EarlyDiscard | None = None,
    evaluator: Evaluator | None = None,
    before: Evaluated | None = None,
) -> Rows:
    """Sample `n` of the artifact with this key (in `ws`, where `evaluator` runs), into `run_dir`: from the
    cache, or evaluated and stored (unless it was stopped early: a partial run is no sample), what the eval
    wrote inside the artifact undone (autoresearch.optimizer.cycle.eval_writes; `before`: the artifact as the
    caller took its key, when it did). One thread at a time measures a sample, so that another
    asking for it meanwhile reads it from the cache."""
    with session.cache.claimed(key, n):
        cached = session.cache.get(key, n)
        if cached is not None:
            faults.point("before-eval")  # a hit is still an eval boundary for the crash harness
            write_index(run_dir, cached)
            spend.hits += 1
            get().info("cache hit", sample=n)
            return cached
        before = before or given(ws, key)
        noted = note(session.vault.eval_notes, ws, before, run_dir, n) if ws.root == session.ws.root else None
        try:
            outcome = evaluate(session, run_dir, watch, evaluator)
        except EvalFailed as exc:
            spend.lost += exc.lost_attempts
            raise
        finally:
            if undo_eval_writes(ws, before, run_dir):
                session.warn_once(ADVICE)
            if noted is not None:
                done(noted)
        if not outcome.notes.get("stopped"):
            session.cache.put(key, n, outcome.rows)
    spend.skipped += int(outcome.notes.get("skipped_tests", 0))
    spend.lost += int(outcome.notes.get("lost_attempts", 0))
    spend.runs += 1
    spend.cost_usd += outcome.cost_usd
    return outcome.rows
