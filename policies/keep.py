"""Keep rules: given the numbers of one comparison, KEEP or DISCARD, with the reason.

Each rule is registered in `RULES` under its config name; the loop looks the
configured name up there and asks the entry how the rule decides. Rules see
only numbers, so they are tested with tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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


def lost_beyond_noise(e: Evidence) -> Decision:
    """`wins-losses`' veto on a confirmation's second run (autoresearch.optimizer.cycle.confirm): kept means
    it lost to the baseline, by more net losses than half the spread of a tie's. Over the n tests that
    differ (ties do not count), a candidate no better than the baseline loses each as often as it wins it,
    so its net losses have mean 0 and standard deviation √n. Within half of that, a second run's losses are
    the noise of a tie, not the sign of a pick carried by a lucky first run that the veto is there for; and
    the margin grows with the tests as that noise does (with 5 to 8 of 12 tests differing, 2 net losses;
    1 when at most 3 differ)."""
    n, net = e.wins + e.losses, e.losses - e.wins
    bound = math.sqrt(n) / 2
    says = f"losses {e.losses} - wins {e.wins} = {net}"
    if net > bound:
        return Decision(True, f"{says} > √{n}/2 = {bound:.2f}")
    return Decision(False, f"{says} <= √{n}/2 = {bound:.2f}")


def score_lost(e: Evidence) -> Decision:
    """`score`'s veto on a confirmation's second run: kept means its mean score is worse than the baseline's
    (higher, for `minimize`); equal is not worse, whatever the sizes."""
    worse = e.candidate_score > e.baseline_score if e.goal == "minimize" else e.candidate_score < e.baseline_score
    return Decision(worse, f"score {e.candidate_score:.4g} against {e.baseline_score:.4g}")


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
    veto: KeepRule | None = None  # a one-run rule's verdict on a confirmation's second run alone: kept means it lost
    # to HEAD (autoresearch.optimizer.cycle.confirm); a sequential rule's test needs none

    def __call__(self, evidence: Evidence) -> Decision:
        decide = self.decide or self.shortlist
        if decide is None:
            raise ValueError(
                "a sequential rule decides from repeated runs (autoresearch.policies.significant), not from one comparison"
            )
        return decide(evidence)

    def lost(self, evidence: Evidence) -> Decision:
        if self.veto is None:
            raise ValueError(
                "a sequential rule tests the runs after a pick (autoresearch.policies.significant), no veto"
            )
        return self.veto(evidence)


RULES: dict[RuleName, Rule] = {
    "wins-losses": Rule(wins_losses, early_discard=True, veto=lost_beyond_noise),
    "score": Rule(score, veto=score_lost),
    "significant": Rule(sequential=True, shortlist=score),
}
