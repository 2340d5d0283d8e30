"""Evaluations through the result cache, and the sequential runs the significant rule asks for.

Every evaluation is one sample of one artifact: looked up in the cache by
(eval, artifact, sample index) first, run and stored otherwise. The
significant rule draws candidate samples 1, 2, … and HEAD samples after the
ones its KEEP was selected on (the winner's curse: those are the lucky draw).
"""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from optimizer import faults, signals
from optimizer.cycle.keys import artifact_key, eval_key
from optimizer.daemonlog import get
from optimizer.gitrepo.workspace import artifact_id, artifact_size, restore_artifact
from policies.significant import Verdict, significant
from runs.cache import SampleCache
from runs.evaluators import EvalOutcome
from runs.samples import merge, write_index


def open_cache(session) -> SampleCache:
    """The shared cache under the results directory; with --no-cache, a namespace of this run alone
    (the significant rule still needs the samples it draws during the run)."""
    config, paths = session.config, session.paths
    if config.cache:
        root = paths.results_dir / "cache"
    else:
        root = paths.meta / f"samples-{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S%f')}"
    return SampleCache(root, eval_key(session.ws, config.eval))


@dataclass
class Spend:
    """What the evaluations of one cycle cost: runs actually made, cache hits, dollars."""

    runs: int = 0
    hits: int = 0
    cost_usd: float = 0.0
    skipped: int = 0  # tests an early discard did not run


def measure(session, run_dir: Path, key: str, n: int, spend: Spend, watch=None) -> list[dict]:
    """Sample `n` of the artifact with this key, into `run_dir`: from the cache, or evaluated and stored
    (unless it was stopped early: a partial run is no sample)."""
    from optimizer.cycle.candidate import evaluate

    cached = session.cache.get(key, n)
    if cached is not None:
        faults.point("before-eval")  # a hit is still an eval boundary for the crash harness
        write_index(run_dir, cached)
        spend.hits += 1
        get().info("cache hit", sample=n)
        return cached
    outcome: EvalOutcome = evaluate(session, run_dir, watch)
    if not outcome.notes.get("stopped"):
        session.cache.put(key, n, outcome.rows)
    spend.skipped += int(outcome.notes.get("skipped_tests", 0))
    spend.runs += 1
    spend.cost_usd += outcome.cost_usd
    return outcome.rows


def head_offset(session) -> int:
    """HEAD's samples that its KEEP was selected on (none for the original)."""
    best = session.history.best
    return int(getattr(best, "samples", 0) or 0) if best and best.cycle > 1 else 0


@dataclass
class Sequential:
    verdict: Verdict
    candidate: list[list[dict]]
    head: list[list[dict]]
    spend: Spend = field(default_factory=Spend)


def decide_significant(session, run_dir: Path) -> Sequential:
    """Draw candidate and HEAD samples until the rule decides; the candidate's merged rows go to run_dir."""
    policy, ws = session.config.policy, session.ws
    cand_key, head_key = artifact_key(ws), artifact_id(ws)
    offset = head_offset(session)
    spend = Spend()
    stored = session.cache.count(head_key, after=offset)  # accumulated by earlier cycles, or a resumed run
    head = [session.cache.get(head_key, n) or [] for n in range(offset + 1, offset + 1 + stored)]
    cand = [measure(session, run_dir / "sample-1", cand_key, 1, spend)]
    simpler = artifact_size(ws) < artifact_size(ws, "HEAD")
    while True:
        hidden = session.holdout.tests if session.holdout else frozenset()
        verdict = significant(_scores(cand, hidden), _scores(head, hidden), policy.confidence, policy.max_repeats, simpler)
        get().info("evidence", action=verdict.action, reason=verdict.reason)
        if verdict.done:
            break
        if verdict.action == "more-candidate":
            n = len(cand) + 1
            cand.append(measure(session, run_dir / f"sample-{n}", cand_key, n, spend))
        else:
            n = offset + len(head) + 1
            with candidate_aside(session, run_dir):
                head.append(measure(session, run_dir / f"head-{n}", head_key, n, spend))
    write_index(run_dir, merge(cand))
    return Sequential(verdict, cand, head, spend)


def _scores(samples: list[list[dict]], hidden: frozenset[str]) -> list[dict[str, float]]:
    """Per-sample test scores, the held-out tests left out: the rule decides on the train part."""
    return [{row["test_id"]: float(row["score"]) for row in rows if row["test_id"] not in hidden} for rows in samples]


@contextmanager
def candidate_aside(session, run_dir: Path):
    """Put HEAD's artifact in the tree for a HEAD run, then the candidate back.

    A crash in between leaves either HEAD (the cycle is redone) or the candidate
    (saved as a patch by the reconcile): both are states a resume repairs.
    """
    ws = session.ws
    aside = run_dir / "candidate-aside"
    with signals.critical():
        _copy(ws.artifact_path, aside)
        restore_artifact(ws)
    try:
        yield
    finally:
        with signals.critical():
            _remove(ws.artifact_path)
            _copy(aside, ws.artifact_path)
            _remove(aside)


def _copy(source: Path, target: Path) -> None:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy2(source, target)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
