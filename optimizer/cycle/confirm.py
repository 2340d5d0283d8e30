"""A second run of the candidate a cycle picked from several, under a rule that decides from one run.

`wins-losses` and `score` keep an edit that changed nothing whenever the noise of its one run
favours it. The best of K such runs is the luckiest of K, so picking it makes the per-cycle
false-KEEP rate grow with K (about 1 - (1 - p)**K for a lone candidate's rate p). So the pick is run
once more, and `search.confirm` says what decides:

- `mean` (the default): the rule on the mean of its two runs, which becomes HEAD's results. A mean of
  two runs is less noisy than one, so the next cycles are judged against steadier results, and the
  lucky first run that won the pick counts for half. Its false-KEEP rate is measured, not bounded by
  construction: 7.9% against K = 1's 8.4% in bench/search_model.py's landscape (K = 4), where it
  reaches K = 1's final score in 10 cycles at 1.45x K = 1's spend (`independent`: 14 cycles, 2.0x).
  The second run is not stopped early: an early discard judges that run alone.
- `independent`: the rule on the second run alone, which becomes HEAD's results. That run does not
  depend on the pick: a null candidate passes it with chance p whatever happened before, so the
  cycle keeps one with chance at most p, K = 1's rate, by construction. A real gain fails its second
  run more often, so it takes more cycles; for a user who wants the bound.
- `off`: the pick's one run decides, for an eval known to be deterministic.

Not needed for `significant` (autoresearch.policies.bestofk corrects its level for K instead), for a
single metric (taken as noise-free, as autoresearch.optimizer.cycle.decide says), or with one
candidate judged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.candidate import assess, early_discard
from autoresearch.optimizer.cycle.decide import rule_of
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing.redact import redact
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import Evaluator

SAMPLE = 2  # the cache's sample index of the second run (the first is 1)


def needs_confirmation(config: Config, judged: int) -> bool:
    """Whether a cycle that judged `judged` candidates confirms its pick."""
    if judged < 2 or config.search.confirm == "off":
        return False
    return not rule_of(config).sequential and config.eval.metric is None


def confirm(
    session: Session, ws: Workspace, run_dir: Path, evaluator: Evaluator, fields: dict[str, Any], first: list[dict]
) -> tuple[list[dict], list[dict]] | None:
    """The candidate at `ws` run once more into `run_dir` and decided again as its first run was (the
    rule, the holdout's veto, the gates), on the mean of that run and `first` (its first run's rows,
    held-out ones included) or on the second run alone, as `search.confirm` says: the (train rows,
    held-out rows) decided on when kept again, None otherwise. `fields` (its draft line) then describe
    those rows, the first run's figures kept as `selected_*`."""
    selected(fields)
    spend = Spend()
    mean = session.config.search.confirm == "mean"
    watch = None if mean else early_discard(session, ws)  # it judges the second run alone
    try:
        rows = measure(session, run_dir, artifact_key(ws), SAMPLE, spend, watch, evaluator)
    except EvalFailed as exc:
        unconfirmed(fields, f"its second run failed ({redact(str(exc))[:200]})")
        return None
    first_spend = {name: fields.get(name) for name in ("cost_usd", "eval_runs", "cache_hits")}
    decided = averaged(first, rows) if mean else rows
    train, held, keep = assess(session, ws, run_dir, decided, session.baseline_rows, spend, fields)
    how = "the mean of two runs" if mean else "a second run"
    fields.update(
        reason=f"{'confirmed' if keep else 'not confirmed'} on {how}: {fields['reason']}",
        cost_usd=round(float(first_spend["cost_usd"] or 0) + spend.cost_usd, 6),
        eval_runs=int(first_spend["eval_runs"] or 1) + spend.runs,
        cache_hits=int(first_spend["cache_hits"] or 0) + spend.hits,
    )
    return (train, held) if keep else None


def averaged(first: list[dict], second: list[dict]) -> list[dict]:
    """The second run's rows, each test's score the mean of its two runs' (a test in one run keeps that
    run's; the last row of a duplicated id counts, as in compare). Everything else is the second run's."""
    before = {row["test_id"]: float(row["score"]) for row in first}
    return [
        {**row, "score": (before[row["test_id"]] + float(row["score"])) / 2} if row["test_id"] in before else row
        for row in second
    ]


def unconfirmed(fields: dict[str, Any], why: str) -> None:
    selected(fields)
    fields["reason"] = f"not confirmed: {why}"


def selected(fields: dict[str, Any]) -> None:
    """The first run's figures, which the pick was made on, kept beside those the confirmation decided on."""
    for name in ("score", "wins", "losses"):
        fields.setdefault(f"selected_{name}", fields.get(name))
