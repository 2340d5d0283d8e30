"""Keep rules: given the numbers of one comparison, KEEP or DISCARD, with the reason.

Each rule is registered in `RULES` under its config name; the loop looks the
configured name up there and asks the entry how the rule decides. Rules see
only numbers, so they are tested with tables.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Literal


@dataclass(frozen=True)
class Evidence:
    """What a rule may look at: the comparison summary and the two artifacts' sizes."""

    wins: int
    losses: int
    ties: int
    mean_delta: float  # rounded to 3 decimals, as `agentv compare`
    baseline_score: float
    candidate_score: float
    baseline_size: int  # lines for a file artifact, bytes for a directory
    candidate_size: int
    goal: Literal["maximize", "minimize"] = "maximize"


@dataclass(frozen=True)
class Decision:
    keep: bool
    reason: str


KeepRule = Callable[[Evidence], Decision]


def swapped(e: Evidence) -> Evidence:
    """The same comparison seen from the baseline's side, its wins the candidate's losses: a rule that
    keeps this says the baseline beat the candidate outright. The two are given one size, so the
    tie-break does not apply: a tie is not a loss."""
    return replace(
        e,
        wins=e.losses,
        losses=e.wins,
        mean_delta=-e.mean_delta,
        baseline_score=e.candidate_score,
        candidate_score=e.baseline_score,
        candidate_size=e.baseline_size,
    )


def _simpler(e: Evidence) -> bool:
    return e.candidate_size < e.baseline_size


def wins_losses(e: Evidence) -> Decision:
    """AgentV's rule: more wins than losses; or no change in the mean and a simpler artifact."""
    if e.wins > e.losses:
        return Decision(True, f"wins {e.wins} > losses {e.losses}")
    if e.mean_delta == 0 and _simpler(e):
        return Decision(True, f"mean_delta 0 and simpler ({e.candidate_size} < {e.baseline_size})")
    return Decision(False, f"wins {e.wins} <= losses {e.losses}, mean_delta {e.mean_delta:+.3f}")


def score(e: Evidence) -> Decision:
    """Keep when the mean score is strictly better (lower, for `minimize`), or equal and simpler."""
    better = e.candidate_score > e.baseline_score
    if e.goal == "minimize":
        better = e.candidate_score < e.baseline_score
    if better:
        return Decision(True, f"score {e.baseline_score:.4g} -> {e.candidate_score:.4g}")
    if e.candidate_score == e.baseline_score and _simpler(e):
        return Decision(True, f"same score and simpler ({e.candidate_size} < {e.baseline_size})")
    return Decision(False, f"score {e.baseline_score:.4g} -> {e.candidate_score:.4g} is not better")


def cannot_win(wins: int, losses: int, remaining: int, simpler: bool) -> bool:
    """Under `wins-losses`, the tests still to come cannot turn this candidate into a KEEP.

    Even if every remaining test were a win, wins would not exceed losses; and the
    tie-break (mean_delta 0 and simpler) can only apply to a simpler candidate.
    """
    return not simpler and losses >= wins + remaining


RuleName = Literal["wins-losses", "score", "significant"]


@dataclass(frozen=True)
class Rule:
    """How a rule decides. Most judge one comparison's `Evidence`; a sequential rule (autoresearch.policies.significant)
    decides from repeated eval runs of the candidate and of HEAD, drawn until it is confident."""

    decide: KeepRule | None = None  # one comparison's evidence -> decision; None for a sequential rule
    sequential: bool = False
    early_discard: bool = False  # `cannot_win` applies: the eval may stop once the candidate cannot be kept
    shortlist: KeepRule | None = None  # a sequential rule's verdict on one run: whether the candidate may be picked
    # from several, to be tested then (autoresearch.optimizer.cycle.confirm)

    def __call__(self, evidence: Evidence) -> Decision:
        decide = self.decide or self.shortlist
        if decide is None:
            raise ValueError(
                "a sequential rule decides from repeated runs (autoresearch.policies.significant), not from one comparison"
            )
        return decide(evidence)


RULES: dict[RuleName, Rule] = {
    "wins-losses": Rule(wins_losses, early_discard=True),
    "score": Rule(score),
    "significant": Rule(sequential=True, shortlist=score),
}
