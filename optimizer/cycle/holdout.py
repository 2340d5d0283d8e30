"""The holdout guard in a cycle: the held-out results hidden after every evaluation, and a KEEP vetoed
when the held-out tests regress. The mutator's tools also refuse the split itself, the result cache
and, with a holdout, the eval file (`hidden_from_mutator`). The split is autoresearch.optimizer.experiment.holdout.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.experiment import holdout
from autoresearch.optimizer.experiment.session import Session
from autoresearch.policies.holdout import regressed
from autoresearch.runs.results import mean_score


def hidden_from_mutator(session: Session, root: Path) -> tuple[Path, ...]:
    """Paths the mutator's tools may not read: the held-out results, the result cache (every test's rows), the
    experiment's own files (holdout.json names the held-out tests; the history it is handed stays readable)
    and, with a holdout, the eval file, which defines the held-out tests: the one in `root`, the tree the
    mutator works in (a parallel candidate's worktree, or a sandbox's throwaway checkout, has its own copy),
    and the one in the user's checkout, which a sandboxed mutator can still read at its own path."""
    paths, config = session.paths, session.config
    hidden = [paths.results_dir / "holdout", paths.results_dir / "cache", paths.meta]
    eval_file = config.eval.file or config.eval.agentv
    if session.holdout and eval_file:
        hidden += dict.fromkeys((root / eval_file, session.ws.root / eval_file))
    return tuple(hidden)


@dataclass(frozen=True)
class Regression:
    """A candidate's held-out tests against HEAD's: `regressed` vetoes a KEEP."""

    score: float
    regressed: bool
    z: float | None


@dataclass(frozen=True)
class HeadHoldout:
    """HEAD's held-out score on its line: what later candidates' held-out tests are checked against."""

    score: float
    tests: int


def check(baseline: Rows, candidate: Rows, confidence: float) -> Regression | None:
    """The candidate's held-out tests checked against HEAD's (None when it has none)."""
    if not candidate:
        return None
    before = {r["test_id"]: float(r["score"]) for r in baseline}
    after = {r["test_id"]: float(r["score"]) for r in candidate}
    worse, z = regressed(before, after, confidence)
    return Regression(mean_score(candidate), worse, round(z, 4) if z is not None else None)


def guard_original(session: Session, run_dir: Path, rows: Rows) -> tuple[Rows, HeadHoldout | None]:
    """Cycle 1: draw the split, hide the held-out results; returns (train rows, HEAD's held-out part)."""
    fraction = session.config.eval.holdout
    if not fraction:
        return rows, None
    paths = session.paths
    split = holdout.create(paths.holdout, paths.results_dir, session.config.experiment_name, rows, fraction)
    train, held = split.partition(rows)
    split.hide(run_dir)
    session.set_holdout(split, held)
    return train, _head_holdout(held)


def guard_head(session: Session, run_dir: Path, rows: Rows) -> tuple[Rows, Rows, HeadHoldout | None]:
    """HEAD measured again (a re-baseline): (train rows, held-out rows, HEAD's held-out part), split as the
    original was."""
    if session.holdout is None:
        return rows, [], None
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir)
    return train, held, _head_holdout(held)


def _head_holdout(held: Rows) -> HeadHoldout | None:
    return HeadHoldout(mean_score(held), len(held)) if held else None


def guard_candidate(session: Session, run_dir: Path, rows: Rows) -> tuple[Rows, Rows, Regression | None]:
    """A candidate: (train rows, held-out rows, the check of the held-out part), its held-out results hidden."""
    if session.holdout is None:
        return rows, [], None
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir, run_dir.relative_to(session.paths.root).as_posix())
    return train, held, check(session.baseline_holdout, held, session.config.policy.confidence)
