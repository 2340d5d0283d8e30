"""K > 1 candidates (`search.candidates`), each in a git worktree of its own: K mutations from HEAD
(autoresearch.optimizer.cycle.window), evaluated at once, each with an evaluator of its share of
`eval.workers`; the checkout only ever receives the cycle's winner, copied in and committed in one critical
block with the cycle's one line. The worktrees are removed however the cycle ends (and by start-up after a
kill -9).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from autoresearch.mutators.config import MutatorConfig
from autoresearch.mutators.registry import build as build_mutator
from autoresearch.mutators.strategies import Strategy, assign, rotation
from autoresearch.optimizer.cycle import parents, tree, window
from autoresearch.optimizer.cycle.batch import Batch, Sibling, save_patches
from autoresearch.optimizer.cycle.conclude import Decided, conclude
from autoresearch.optimizer.cycle.evaluation import judge_candidate
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.line import Draft
from autoresearch.optimizer.cycle.sequential import Place
from autoresearch.optimizer.cycle.threads import all_at_once
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.status import everything_changed
from autoresearch.optimizer.gitrepo.workspace import Workspace, inside
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.evaluators.registry import build as build_evaluator
from autoresearch.runs.samples import write_index


@dataclass(frozen=True)
class Worktrees:
    """The site of K candidates, one worktree each (see autoresearch.optimizer.cycle.batch.Site)."""

    several: bool = True

    def mutate(self, session: Session, batch: Batch) -> None:
        window.mutate_now(session, batch)

    def evaluate(self, session: Session, siblings: list[Sibling], workers: int | None = None) -> None:
        """The mutated candidates evaluated at once, one run each, `workers` (`eval.workers` unless a
        confirmation runs beside them) shared between them, each judged against HEAD on it (under a sequential
        rule, whether it may be picked: autoresearch.optimizer.cycle.confirm tests the pick)."""
        live = [s for s in siblings if s.error is None]
        if not live:
            return
        eval_config = share(session, len(live), workers)
        all_at_once([partial(_evaluate_one, session, s, eval_config) for s in live])

    def set_aside(self, siblings: list[Sibling], winner: Sibling | None) -> None:
        save_patches(siblings, winner)

    def shelve(self, siblings: list[Sibling]) -> None:
        save_patches(siblings, None)

    def salvage(self, siblings: list[Sibling]) -> None:
        """The patches of a cycle an exception is ending (no idea lost), an error of git's meanwhile logged
        rather than raised over it."""
        try:
            save_patches(siblings, None)
        except Exception as exc:
            get().warning("could not save the candidates' patches", error=str(exc)[:300])

    def intact(self, winner: Sibling | None) -> Sibling | None:
        """The winner, if its worktree is still what was evaluated: the same artifact, and no committed file
        changed (an eval script, a grader). Something else that writes there (a mutator of the next cycle,
        which runs meanwhile, gone astray) must not get its edit committed unmeasured, nor a score it forged."""
        if winner is None:
            return None
        try:
            changed = [
                path
                for path, code in everything_changed(winner.ws).items()
                if code not in ("??", "!!") and not inside(winner.ws, path)
            ]
            if winner.evaluated is None or artifact_key(winner.ws) != winner.evaluated.key:
                changed.insert(0, winner.ws.artifact)
        except IntegrityError:  # git no longer reads it as a worktree: its .git file was changed
            changed = [".git"]
        if not changed:
            return winner
        winner.error = ("out-of-scope", f"its worktree changed after it was evaluated: {', '.join(changed[:5])}")
        winner.unkeep(not_kept=winner.error[1])
        get().warning("the cycle's pick is not kept: its worktree changed after it was evaluated", paths=changed[:5])
        return None

    def conclude(self, session: Session, batch: Batch, decided: Decided) -> None:
        """The rows the line shows written where the next mutators and a resume read HEAD's (a KEEP's held-out
        ones too), then a winner's artifact copied into the checkout and committed; with no winner, the
        checkout, which no candidate touched, settled."""
        run_dir, shown, kept = batch.run_dir, decided.shown, decided.kept
        if shown is not None and shown.rows is not None:
            write_index(run_dir, shown.rows)  # the run just decided, as the next mutators and a resume read it
        if shown is None or kept is None:
            return conclude(session, tree.Candidate(session.ws, run_dir, touched=False), decided.line, None)
        if session.holdout is not None:  # and its held-out rows, where a resume reads HEAD's
            write_index(session.holdout.root / run_dir.name, kept.held)
        with tree.in_tree(session.ws, run_dir) as cand:
            tree.replace_artifact(shown.ws.artifact_path, session.ws, run_dir)
            conclude(session, cand, decided.line, kept)

    def close(self, session: Session, batch: Batch) -> None:
        worktrees.clear(session.ws, session.paths.meta, batch.name)


def new_batch(session: Session, number: int) -> Batch:
    """K worktrees at HEAD (or, with `search.parents: pareto`, some at an earlier candidate carried onto it:
    autoresearch.optimizer.cycle.parents) and a strategy each (see autoresearch.mutators.strategies), not
    yet mutated."""
    k = session.config.search.candidates
    batch = Batch(number, session.paths.new_run_dir(number), Worktrees())
    spaces = worktrees.make(session.ws, session.paths.meta, batch.name, k)
    strategies = assign(tuple(session.config.search.strategies), k, _shift(session))
    batch.siblings = [_sibling(session, batch, i, strategies[i], spaces[i]) for i in range(k)]
    parents.start(session, batch)
    return batch


def share(session: Session, among: int, workers: int | None = None) -> EvalConfig:
    """The eval's settings with a `1/among` share of `workers` (`eval.workers` unless given)."""
    total = session.config.eval.workers if workers is None else workers
    return session.config.eval.model_copy(update={"workers": max(1, total // among)})


def evaluator(session: Session, ws: Workspace, eval_config: EvalConfig) -> Evaluator:
    return build_evaluator(eval_config, ws.root, session.config.executor_at(ws.root))


def _evaluate_one(session: Session, s: Sibling, eval_config: EvalConfig) -> None:
    s.place = Place(s.ws, evaluator(session, s.ws, eval_config))
    try:
        assessed = judge_candidate(session, s)
        s.rows, s.held, s.keep = assessed.rows, assessed.held, assessed.keep
    except EvalFailed as exc:
        s.error = ("eval-failed", str(exc))


def _shift(session: Session) -> int:
    """How far the strategy assignment has rotated: once per plateau of half `max_convergence` cycles."""
    period = max(1, session.config.stop.max_convergence // 2)
    return rotation([r.decision for r in session.history.rows[1:]], period)


def mutator_config(session: Session, strategy: Strategy) -> MutatorConfig:
    """The mutator's settings with a strategy's own (its model, its temperature)."""
    settings = {name: value for name in ("model", "temperature") if (value := getattr(strategy, name)) is not None}
    return session.config.mutator.model_copy(update=settings)


def _sibling(session: Session, batch: Batch, i: int, strategy: Strategy, ws: Workspace) -> Sibling:
    own = mutator_config(session, strategy)
    mutator = build_mutator(own, ws.root) if own != session.config.mutator else None
    sib_dir = batch.run_dir / f"candidate-{i}"
    sib_dir.mkdir(parents=True, exist_ok=True)
    draft = Draft(batch.number, batch.run_dir.name, session.eval_key)
    return Sibling(i, strategy, ws, draft, mutator or session.mutator, sib_dir)
