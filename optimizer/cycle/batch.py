"""A cycle's candidates, one or K, from their mutation to their verdict, and where they live (`Site`).

The cycle (autoresearch.optimizer.cycle.engine) runs one path for every batch; what differs with where its
candidates live is the `Site`'s: a lone candidate in the user's checkout
(autoresearch.optimizer.cycle.in_checkout), or K candidates in worktrees of their own
(autoresearch.optimizer.cycle.in_worktrees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from autoresearch.mutators.base import Mutator
from autoresearch.mutators.strategies import Strategy
from autoresearch.optimizer.cycle.decide import is_better
from autoresearch.optimizer.cycle.eval_writes import Evaluated
from autoresearch.optimizer.cycle.gating import Rows
from autoresearch.optimizer.cycle.line import Carry, Draft, MutationSpend, Selected
from autoresearch.optimizer.cycle.sequential import Place
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo.workspace import Workspace, candidate_patch
from autoresearch.plumbing.errors import IntegrityError

if TYPE_CHECKING:
    from autoresearch.optimizer.cycle.conclude import Decided
    from autoresearch.optimizer.experiment.session import Session

LONE = Strategy(name="lone", instructions="")  # a lone candidate's: the mutator's own request, on no line
MERGE = Strategy(name="merge", instructions="")  # a merge candidate's: no mutator, its parents' patches
CONFLICT = "conflict"  # the error of a candidate mutated ahead whose edit does not carry onto the new HEAD


@dataclass
class Sibling:
    """One of a cycle's candidates, from its mutation to its verdict."""

    index: int
    strategy: Strategy
    ws: Workspace
    draft: Draft
    mutator: Mutator
    run_dir: Path
    error: tuple[str, str] | None = None  # (reason, message) of a candidate that failed
    place: Place | None = None  # where it is evaluated, once it is (None: the checkout, by the session's evaluator)
    rows: Rows | None = None  # its train rows, once evaluated
    held: Rows | None = None
    keep: bool = False
    evaluated: Evaluated | None = None  # its artifact as its evaluation began: what a KEEP commits
    paid: MutationSpend = MutationSpend()  # its mutations' spend already on a line (`settle`)
    merge_of: list[int] | None = None  # a merge candidate: the siblings whose patches it combines
    parents: str = ""  # and their strategies, for its commit message
    parent: str = ""  # `search.parents: pareto`: the stored candidate it started from (`<cycle>-<index>`); "" is HEAD
    start_key: str = ""  # and its artifact's key before the mutation (autoresearch.optimizer.cycle.parents)

    def picked_on(self) -> Selected:
        """The figures (score, wins, losses) of its first run, which the pick compares: kept as `selected` once a
        confirmation replaced them (autoresearch.optimizer.cycle.confirm)."""
        if self.draft.selected is not None:
            return self.draft.selected
        a = self.draft.assessment
        return Selected(a.score, a.summary.wins, a.summary.losses) if a else Selected(None, None, None)

    def unkeep(self, **why: object) -> None:
        """Not kept after all (its reason given the parts that say why)."""
        self.keep = False
        if self.draft.assessment is not None:
            self.draft.assessment = self.draft.assessment.unkept(**why)

    @property
    def mutated(self) -> MutationSpend:
        return self.draft.mutation_spend or MutationSpend()


class Site(Protocol):
    """Where a batch's candidates live, and the steps of a cycle that differ with it."""

    @property
    def several(self) -> bool:
        """K > 1: candidates evaluated at once on one run each, so the budget is read before their evals, a
        pick is confirmed, winners may be merged, and the next batch may be mutated ahead meanwhile."""

    def mutate(self, session: Session, batch: Batch) -> None:
        """Mutate the batch's candidates; a failure is a candidate's `error`, not raised."""

    def evaluate(self, session: Session, siblings: list[Sibling], workers: int | None = None) -> None:
        """Evaluate and judge the candidates not failed (`workers` shared between them, if given)."""

    def set_aside(self, siblings: list[Sibling], winner: Sibling | None) -> None:
        """Save the patch of every candidate but the winner: no idea is lost."""

    def shelve(self, siblings: list[Sibling]) -> None:
        """Made while the STOP file appeared: saved as patches, not evaluated (the checkout back at HEAD)."""

    def salvage(self, siblings: list[Sibling]) -> None:
        """An exception is ending the cycle: what can be saved of the candidates is, quietly."""

    def intact(self, winner: Sibling | None) -> Sibling | None:
        """The winner, if what would be committed is what was evaluated."""

    def conclude(self, session: Session, batch: Batch, decided: Decided) -> None:
        """The cycle's one commit-or-settle (autoresearch.optimizer.cycle.conclude), a winner in the checkout."""

    def close(self, session: Session, batch: Batch) -> None:
        """On every way out: the checkout at HEAD unless committed, the worktrees removed."""


@dataclass
class Batch:
    """A cycle's candidates, their run directory and where they live; `name` is their worktrees' folder."""

    number: int
    run_dir: Path
    site: Site
    siblings: list[Sibling] = field(default_factory=list)
    carry: Carry | None = None  # made ahead: how its edits carried onto the HEAD its cycle starts from

    @property
    def name(self) -> str:
        return str(self.number)

    @property
    def live(self) -> bool:
        """Whether a candidate is left that did not fail."""
        return any(s.error is None for s in self.siblings)


def owed(s: Sibling) -> MutationSpend:
    """Its mutations' spend not yet on a line."""
    return s.mutated - s.paid


def settle(siblings: list[Sibling]) -> MutationSpend:
    """The mutation spend the siblings owe, summed, and from now on counted as paid: each mutation is on
    exactly one line (with overlap, the line of the cycle during which it ran), so the budget, which sums the
    lines, counts every one, including those of a batch a stop left unevaluated."""
    total = MutationSpend()
    for s in siblings:
        total += owed(s)
        s.paid = s.mutated
    return total


def save_patches(siblings: list[Sibling], winner: Sibling | None) -> None:
    """Every candidate not kept keeps its diff (candidate.patch in its run directory): no idea is lost."""
    for s in siblings:
        if s is winner:
            continue
        try:
            patch = candidate_patch(s.ws)
        except IntegrityError as exc:  # a worktree git no longer reads (its .git file changed): nothing to save
            get().warning(f"could not save candidate {s.index}'s patch", error=str(exc)[:300])
            continue
        if patch.strip():
            (s.run_dir / "candidate.patch").write_text(patch + "\n", encoding="utf-8")


def best_of(kept: list[Sibling], session: Session) -> Sibling | None:
    """The best of the candidates the rule would keep: the highest score in the goal's direction, then
    the most wins over losses, then the lowest index."""
    best = None
    for s in kept:
        if best is None or picked_over(s, best, session):
            best = s
    return best


def picked_over(a: Sibling, b: Sibling, session: Session) -> bool:
    """Whether `a` is picked over `b`, on their first runs."""
    first_a, first_b = a.picked_on(), b.picked_on()
    score_a, score_b = first_a.score or 0.0, first_b.score or 0.0
    if score_a != score_b:
        return is_better(session.config.eval.goal, score_a, score_b)
    return _margin(first_a) > _margin(first_b)


def _margin(first: Selected) -> int:
    return (first.wins or 0) - (first.losses or 0)
