"""The holdout guard in a cycle: the held-out results hidden after every evaluation, and a KEEP vetoed
when the held-out tests regress. The mutator's tools also refuse the split itself, the result cache
and, with a holdout, the eval file (`hidden_from_mutator`). The split is autoresearch.optimizer.experiment.holdout.
"""

from __future__ import annotations

from pathlib import Path

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


def check(baseline: list[dict], candidate: list[dict], confidence: float) -> dict:
    """The holdout's fields on the iterations line; `holdout_regressed` vetoes a KEEP."""
    if not candidate:
        return {}
    before = {r["test_id"]: float(r["score"]) for r in baseline}
    after = {r["test_id"]: float(r["score"]) for r in candidate}
    worse, z = regressed(before, after, confidence)
    fields = {"holdout_score": mean_score(candidate), "holdout_regressed": worse}
    return {**fields, "holdout_z": round(z, 4)} if z is not None else fields


def guard_original(session: Session, run_dir: Path, rows: list[dict]) -> tuple[list[dict], dict]:
    """Cycle 1: draw the split, hide the held-out results; returns (train rows, line fields)."""
    fraction = session.config.eval.holdout
    if not fraction:
        return rows, {}
    paths = session.paths
    split = holdout.create(paths.holdout, paths.results_dir, session.config.experiment_name, rows, fraction)
    train, held = split.partition(rows)
    split.hide(run_dir)
    session.set_holdout(split, held)
    return train, _head_fields(held)


def guard_head(session: Session, run_dir: Path, rows: list[dict]) -> tuple[list[dict], list[dict], dict]:
    """HEAD measured again (a re-baseline): (train rows, held-out rows, line fields), split as the original was."""
    if session.holdout is None:
        return rows, [], {}
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir)
    return train, held, _head_fields(held)


def _head_fields(held: list[dict]) -> dict:
    """HEAD's held-out score on its line: what later candidates' held-out tests are checked against."""
    return {"holdout_score": mean_score(held), "holdout_tests": len(held)} if held else {}


def guard_candidate(session: Session, run_dir: Path, rows: list[dict]) -> tuple[list[dict], list[dict], dict]:
    """A candidate: (train rows, held-out rows, line fields), its held-out results hidden."""
    if session.holdout is None:
        return rows, [], {}
    train, held = session.holdout.partition(rows)
    session.holdout.hide(run_dir, run_dir.relative_to(session.paths.root).as_posix())
    return train, held, check(session.baseline_holdout, held, session.config.policy.confidence)
