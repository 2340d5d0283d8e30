"""The candidate a cycle picked from several, decided again on runs that did not pick it.

The best of K candidates is picked on one run each, so it is also the luckiest of K runs: decided on
that run, a cycle whose candidates changed nothing would keep one with a chance growing with K (about
1 - (1 - p)**K for a lone candidate's rate p). So the pick is run again.

Under `significant`, the pick's sequential test (autoresearch.optimizer.cycle.sequential) draws its
samples from 2 on, at the configured confidence, and HEAD's samples as for a lone candidate (drawn in a
worktree at HEAD beside the pick's, `Place.head`, so that the test's runs come two at a time). Sample 1
chose it and is left out: the test sees only runs that are independent of the choice, so a pick that
changed nothing passes it with chance at most 1 - confidence however many candidates it was picked
from, and the per-cycle false-KEEP rate stays at the configured level by construction. The price is the
one run per candidate that chose the pick (tests/policies/test_select_then_test.py measures both).
A candidate's one run only decides whether it may be picked: its score above HEAD's (the rule's
`shortlist`).

Under `wins-losses` and `score`, which decide from one run, the pick is run once more and
`search.confirm` says what decides:

- `mean` (the default): the rule on the mean of its two runs, which becomes HEAD's results, and the
  second run alone must not lose to HEAD (the rule would not keep HEAD over it: under `wins-losses`,
  its wins at least its losses). A mean of two runs is less noisy than one, so the next cycles are
  judged against steadier results; but the lucky first run that won the pick counts for half of it,
  and a null pick that won big by luck can carry a mean over the line on a second run that lost. The
  second run does not depend on the pick, so its veto catches those. Its false-KEEP rate is measured,
  not bounded by construction (bench/search_model.py: without the veto, K = 4 kept false edits at
  about K = 1's rate, 5.1% against 5.5% early in the climb; with it, 3.3%, for 38% of the time to K =
  1's final score instead of 31%). The second run is not stopped early: it is decided with the first.
- `independent`: the rule on the second run alone, which becomes HEAD's results. That run does not
  depend on the pick: a null candidate passes it with chance p whatever happened before, so the
  cycle keeps one with chance at most p, K = 1's rate, by construction. A real gain fails its second
  run more often, so it takes more cycles; for a user who wants the bound.
- `off`: the pick's one run decides, for an eval known to be deterministic.

Not needed for a single metric (taken as noise-free, as autoresearch.optimizer.cycle.decide says), nor,
under a one-run rule, with one candidate judged.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.decide import beaten, rule_of
from autoresearch.optimizer.cycle.evaluation import early_discard
from autoresearch.optimizer.cycle.gating import Rows, Sizes
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.line import Draft, EvalSpend, Selected
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.sequential import Place, decide_significant
from autoresearch.optimizer.cycle.verdict import Assessment, assess
from autoresearch.optimizer.experiment.session import Session
from autoresearch.plumbing.redact import redact
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.samples import merge

SAMPLE = 2  # the cache's sample index of the second run (the first is 1)


def needs_confirmation(config: Config, judged: int) -> bool:
    """Whether a cycle that judged `judged` candidates decides on its pick again: always under a sequential
    rule (a candidate's one run only shortlists it), when it picked from several under the others."""
    if config.eval.metric is not None:
        return False
    if rule_of(config).sequential:
        return True
    return judged >= 2 and config.search.confirm != "off"


def confirm(session: Session, place: Place, run_dir: Path, draft: Draft, first: Rows) -> Assessment | None:
    """The candidate at `place` run again into `run_dir` and decided again as its first run was (the rule,
    the holdout's veto, the gates): by the sequential rule's test on samples from 2 on, or on the mean of a
    second run and `first` (its first run's rows, held-out ones included; the second run must not lose
    alone), or on the second run alone, as `search.confirm` says. Returns the assessment decided on when kept
    again, None otherwise; the draft line then describes that assessment, the first run's figures kept as
    `selected`."""
    selected(draft)
    ws = place.ws
    sequential = rule_of(session.config).sequential
    mean = not sequential and session.config.search.confirm == "mean"
    spend, first_run, sizes = Spend(), draft.spend.on_line(), Sizes.of(ws)
    try:
        if sequential:
            test = decide_significant(session, run_dir, spend, sizes, place, first=SAMPLE)
            rows, baseline = merge(test.candidate), merge(test.head)
        else:
            test, baseline = None, session.baseline_rows
            watch = None if mean else early_discard(session, sizes)  # it judges the second run alone
            rows = measure(session, ws, run_dir, artifact_key(ws), SAMPLE, spend, watch, place.evaluator)
    except EvalFailed as exc:
        unconfirmed(draft, f"its {'test' if sequential else 'second run'} failed ({redact(str(exc))[:200]})")
        first_run.add(spend)
        draft.spend = replace(EvalSpend.before_failing(first_run), skipped_tests=draft.spend.skipped_tests)
        return None
    decided = averaged(first, rows) if mean else rows
    assessed = assess(session, run_dir, (decided, baseline), sizes, spend.skipped, test)
    if assessed.keep and mean and (lost := lost_alone(session, sizes, baseline, rows)):
        assessed = assessed.unkept(lost_alone=lost)
    how = "runs after its pick" if sequential else "the mean of two runs" if mean else "a second run"
    draft.assessment = replace(assessed, reason=replace(assessed.reason, confirmation=how, confirmed=assessed.keep))
    first_run.add(spend)
    skipped = spend.skipped or draft.spend.skipped_tests  # (a first run's is kept when the second skipped none)
    draft.spend = EvalSpend(
        round(first_run.cost_usd, 6), first_run.runs, first_run.hits, skipped, first_run.lost or None
    )
    return draft.assessment if assessed.keep else None


def lost_alone(session: Session, sizes: Sizes, baseline: Rows, second: Rows) -> str | None:
    """Why HEAD beat the second run by the rule (their held-out tests left out), None if it did not."""
    if session.holdout:
        baseline, second = session.holdout.partition(baseline)[0], session.holdout.partition(second)[0]
    head = beaten(session.config, sizes, baseline, second)
    return head.reason if head.keep else None


def averaged(first: Rows, second: Rows) -> Rows:
    """The second run's rows, each test's score the mean of its two runs' (a test in one run keeps that
    run's; the last row of a duplicated id counts, as in compare). Everything else is the second run's."""
    before = {row["test_id"]: float(row["score"]) for row in first}
    return [
        {**row, "score": (before[row["test_id"]] + float(row["score"])) / 2} if row["test_id"] in before else row
        for row in second
    ]


def unconfirmed(draft: Draft, why: str) -> None:
    """A pick that could not be decided again: not kept, and why."""
    selected(draft)
    assert draft.assessment is not None, "only an evaluated pick is confirmed"
    draft.assessment = draft.assessment.unkept(unconfirmed=why)


def selected(draft: Draft) -> None:
    """The first run's figures, which the pick was made on, kept beside those the confirmation decided on."""
    if draft.selected is None and draft.assessment is not None:
        a = draft.assessment
        draft.selected = Selected(a.score, a.summary.wins, a.summary.losses)
