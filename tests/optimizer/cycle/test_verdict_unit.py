"""A decision as a value: its reason is typed parts rendered in one place, and the value cannot be edited."""

from __future__ import annotations

import dataclasses

import pytest

from autoresearch.optimizer.cycle.gating import Sizes
from autoresearch.optimizer.cycle.verdict import Assessment, Reason
from autoresearch.policies.gates import Blocked
from autoresearch.runs.compare import Summary

RULE = "wins 2 > losses 0"


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (Reason(RULE), RULE),
        (Reason(RULE, holdout_vetoed=True), f"{RULE}; vetoed: the holdout regressed"),
        (Reason(RULE, gate=Blocked("must_pass", "c fell")), f"blocked by gate must_pass: c fell ({RULE})"),
        (Reason(RULE, confirmation="a second run", confirmed=True), f"confirmed on a second run: {RULE}"),
        (
            Reason(RULE, lost_alone="wins 1 > losses 0", confirmation="the mean of two runs"),
            f"not confirmed on the mean of two runs: {RULE}; but its second run alone lost to HEAD "
            "(for HEAD: wins 1 > losses 0)",
        ),
        (
            Reason(RULE, confirmation="a second run", confirmed=True, merge_won=True),
            f"confirmed on a second run: {RULE}; not kept: the merge candidate scored higher",
        ),
        (Reason(RULE, unconfirmed="the budget was spent"), "not confirmed: the budget was spent"),
        (Reason(RULE, not_kept="its worktree changed"), "not kept: its worktree changed"),
    ],
)
def test_a_reason_is_rendered_from_its_parts_in_one_place(reason, text):
    assert str(reason) == text


def test_an_assessment_is_frozen_and_unkept_by_a_new_value():
    summary = Summary(total=2, matched=2, wins=2, losses=0, ties=0, mean_delta=0.5, mean_normalized_gain=None)
    kept = Assessment(
        rows=[],
        held=[],
        keep=True,
        reason=Reason(RULE),
        score=1.0,
        assertions={},
        summary=summary,
        tests=None,
        holdout=None,
        objectives={},
        composite=None,
        sizes=Sizes(head=2, candidate=1),
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        kept.keep = False  # type: ignore[misc]
    unkept = kept.unkept(not_kept="changed")
    assert (kept.keep, unkept.keep, str(unkept.reason)) == (True, False, "not kept: changed")
    assert kept.sizes.simpler
