"""From two result sets to a decision: the comparison, the evidence, and the configured rule."""

from __future__ import annotations

import math
from dataclasses import dataclass

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.gating import Rows, Sizes, scored_pair
from autoresearch.policies.keep import RULES, Decision, Evidence, Rule, RuleName, swapped
from autoresearch.runs.compare import Comparison, compare
from autoresearch.runs.results import mean_score


@dataclass(frozen=True)
class Judgement:
    comparison: Comparison
    decision: Decision
    scored: tuple[Rows, Rows]  # (HEAD's rows, the candidate's) as the rule saw them (`scored_pair`)


def rule_name(config: Config) -> RuleName:
    """The rule in force. A single metric is noise-free by assumption and AgentV's rounding would hide
    small changes, so it is kept only when strictly better (or exactly equal and simpler): `score`."""
    return "score" if config.eval.metric else config.policy.rule


def rule_of(config: Config) -> Rule:
    return RULES[rule_name(config)]


def judge(config: Config, sizes: Sizes, baseline_rows: Rows, candidate_rows: Rows) -> Judgement:
    """One comparison's decision, by a rule that decides from it (see `Rule.sequential` for the other kind)."""
    scored = scored_pair(config, sizes, baseline_rows, candidate_rows)
    comparison, evidence = _weigh(config, sizes, *scored)
    return Judgement(comparison, rule_of(config)(evidence), scored)


def beaten(config: Config, sizes: Sizes, baseline_rows: Rows, candidate_rows: Rows) -> Decision:
    """The rule's decision with the roles swapped: kept means HEAD's results beat the candidate's as a
    candidate's must beat HEAD's to be kept (a confirmation's second run must not lose so,
    autoresearch.optimizer.cycle.confirm). Its reason speaks for HEAD."""
    scored = scored_pair(config, sizes, baseline_rows, candidate_rows)
    return rule_of(config)(swapped(_weigh(config, sizes, *scored)[1]))


def _weigh(config: Config, sizes: Sizes, baseline_rows: Rows, candidate_rows: Rows) -> tuple[Comparison, Evidence]:
    """The comparison and the rule's evidence from rows already scored as the rule sees them."""
    comparison = compare_for_goal(config, baseline_rows, candidate_rows)
    s = comparison.summary
    evidence = Evidence(
        wins=s.wins,
        losses=s.losses,
        ties=s.ties,
        mean_delta=s.mean_delta,
        baseline_score=mean_score(baseline_rows),
        candidate_score=mean_score(candidate_rows),
        baseline_size=sizes.head,
        candidate_size=sizes.candidate,
        goal=config.eval.goal,
    )
    return comparison, evidence


def compare_for_goal(config: Config, baseline_rows: Rows, candidate_rows: Rows) -> Comparison:
    """Per-test evals compare as AgentV does. A single metric compares strictly: any improvement
    in the goal's direction is a win (lower is better for `minimize`), equal is a tie."""
    if config.eval.metric is None:
        return compare(baseline_rows, candidate_rows, config.policy.threshold)
    sign = -1.0 if config.eval.goal == "minimize" else 1.0

    def flip(rows: Rows) -> Rows:
        return [{**r, "score": sign * float(r["score"])} for r in rows]

    return compare(flip(baseline_rows), flip(candidate_rows), threshold=math.ulp(0.0))


def is_better(goal: str, best: float, original: float) -> bool:
    return best < original if goal == "minimize" else best > original
