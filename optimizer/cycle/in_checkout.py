"""K = 1: the cycle's lone candidate in the user's checkout, as cheap as a cycle can be (no worktree).

The mutator works in the checkout (autoresearch.optimizer.cycle.mutate), or, with `executor: ray`, in a copy
of it on a worker whose artifact is written back into it (autoresearch.optimizer.cycle.on_cluster); the
candidate is evaluated there by the session's evaluator (a sequential rule's test puts HEAD's artifact in its
place for HEAD's runs), and a KEEP is already where it is committed. `tree.Candidate` sees that every way out leaves the artifact at HEAD
unless it was committed: a DROP or an error saves its diff first, so no tried idea is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from autoresearch.mutators.errors import MutationFailed, MutationsExhausted
from autoresearch.optimizer.cycle import tree
from autoresearch.optimizer.cycle.batch import LONE, Batch, Sibling
from autoresearch.optimizer.cycle.conclude import Decided, conclude
from autoresearch.optimizer.cycle.evaluation import judge_candidate
from autoresearch.optimizer.cycle.line import Draft, MutationSpend
from autoresearch.optimizer.cycle.mutate import mutate
from autoresearch.optimizer.experiment.session import Session
from autoresearch.runs.errors import EvalFailed


@dataclass(frozen=True)
class Checkout:
    """The site of a lone candidate: the checkout (see autoresearch.optimizer.cycle.batch.Site)."""

    candidate: tree.Candidate
    several: bool = False

    def mutate(self, session: Session, batch: Batch) -> None:
        s = batch.siblings[0]
        try:
            mutation = mutate(session, batch.number, self.candidate, s.mutator)
        except MutationFailed as exc:
            if exc.spent is not None:
                s.draft.mutation_spend = MutationSpend.of(exc.spent)
            s.error = (exc.reason, str(exc))
            return
        except MutationsExhausted:
            s.error = ("exhausted", "the mutator has no more mutations")
            return
        s.draft.mutation, s.draft.mutation_spend = mutation.summary, MutationSpend.of(mutation)

    def evaluate(self, session: Session, siblings: list[Sibling], workers: int | None = None) -> None:
        """The candidate evaluated and decided where it is: once, or by a sequential rule's whole test."""
        for s in siblings:
            if s.error is not None:
                continue
            try:
                assessed = judge_candidate(session, s)
            except EvalFailed as exc:
                s.error = ("eval-failed", str(exc))
                continue
            s.rows, s.held, s.keep = assessed.rows, assessed.held, assessed.keep

    def set_aside(self, siblings: list[Sibling], winner: Sibling | None) -> None:
        """Nothing yet: a candidate not kept is saved as its cycle concludes (`tree.Candidate.discard`)."""

    def shelve(self, siblings: list[Sibling]) -> None:
        self.candidate.discard()

    def salvage(self, siblings: list[Sibling]) -> None:
        """Nothing: `close` puts the artifact back at HEAD."""

    def intact(self, winner: Sibling | None) -> Sibling | None:
        """The winner: a write to the artifact after its evaluation (until the commit's last moment) is undone
        and saved by the commit itself (`tree.Candidate.commit`), which then commits what was evaluated."""
        return winner

    def conclude(self, session: Session, batch: Batch, decided: Decided) -> None:
        conclude(session, self.candidate, decided.line, decided.kept)

    def close(self, session: Session, batch: Batch) -> None:
        self.candidate.close()


def new_batch(session: Session, number: int) -> Batch:
    """The cycle's run directory, and its lone candidate in the checkout, not yet mutated."""
    run_dir = session.paths.new_run_dir(number)
    draft = Draft(number, run_dir.name, session.eval_key)
    batch = Batch(number, run_dir, Checkout(tree.Candidate(session.ws, run_dir)))
    batch.siblings = [Sibling(0, LONE, session.ws, draft, session.mutator, run_dir)]
    return batch
