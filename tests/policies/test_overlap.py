"""When the next cycle's batch is made ahead: while the batches made ahead before it mostly carried."""

from __future__ import annotations

import pytest

from autoresearch.policies.overlap import MadeAhead, plan

T, F = True, False


def batches(*carried: bool, first: int = 3) -> list[MadeAhead]:
    """Batches made ahead for consecutive cycles from `first`, of three edits each: all carried, or none."""
    return [MadeAhead(first + i, 3, 3 if c else 0) for i, c in enumerate(carried)]


@pytest.mark.parametrize(
    "history, next_cycle, made_ahead, probe",
    [
        ([], 3, T, F),  # nothing known: ahead
        (batches(F, F), 5, T, F),  # two of the last four not yet made: counted as carried, so half carried
        (batches(F, F, F), 6, F, F),  # one of four at most: stopped
        (batches(F, F, F), 10, T, T),  # five cycles after the last made ahead: a probe
        (batches(F, F, F), 9, F, F),  # four: not yet
        (batches(T, T, F, F), 7, T, F),  # half of the last four carried
        (batches(T, F, F, F), 7, F, F),
        (batches(T, T, T, T, F, F, F), 10, F, F),  # only the last four count
        ([*batches(F, F, F), MadeAhead(10, 3, 3)], 11, T, F),  # the probe carried: ahead again
        ([*batches(F, F, F), MadeAhead(10, 3, 0)], 14, F, F),  # it did not: the next probe five after it
        ([*batches(F, F, F), MadeAhead(10, 3, 0)], 15, T, T),
        (batches(F, F, F) + [MadeAhead(6, 0, 0)], 7, F, F),  # a batch whose mutations all failed tells nothing
        ([MadeAhead(3, 3, 1), MadeAhead(4, 3, 1), MadeAhead(5, 3, 1)], 6, T, F),  # one edit carried: no redo
    ],
)
def test_plan(history, next_cycle, made_ahead, probe):
    p = plan(history, next_cycle)
    assert (p.ahead, p.probe) == (made_ahead, probe)
