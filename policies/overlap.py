"""When to mutate the next cycle's candidates ahead (`search.overlap`): while the edits made ahead carry.

An edit made ahead starts from the HEAD before this cycle's decision; a KEEP moves HEAD, and the edit is carried
onto it by a three-way merge. A mutator whose edits always meet the KEEP's (one that appends to the artifact)
never carries, and a batch none of whose edits carried is mutated again: its mutations paid twice. So running
ahead stops while fewer than half of the last `WINDOW` batches made ahead carried (a batch carried when one of
its edits did; a run with fewer behind it counts the missing ones as carried, so that one conflict does not
stop it); while stopped, every `PROBE_EVERY`th cycle is made ahead all the same, and running ahead resumes
when that probe carries, so a run whose edits become carry-friendly gets its overlap back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WINDOW = 4  # the last batches made ahead the carry rate is read over
PROBE_EVERY = 5  # while stopped: the batch of every this many cycles after the last made ahead is made ahead


@dataclass(frozen=True)
class MadeAhead:
    """A batch made ahead, once its edits were carried onto its cycle's HEAD (or not)."""

    cycle: int
    edits: int  # its edits that reached the carry (those whose mutation failed never did)
    carried: int  # of those, the ones that carried

    @property
    def did_carry(self) -> bool:
        return self.carried > 0


@dataclass(frozen=True)
class CarryRate:
    """Of the last `WINDOW` batches made ahead (fewer, early in a run), how many carried."""

    carried: int
    batches: int

    @property
    def low(self) -> bool:
        """Fewer than half carried, a batch not yet made ahead counted as carried."""
        return 2 * (self.carried + WINDOW - self.batches) < WINDOW

    def __str__(self) -> str:
        return f"{self.carried} of the last {self.batches} batches made ahead carried"


@dataclass(frozen=True)
class Plan:
    """Whether the next cycle's batch is made ahead, whether as a probe, and the rate that says so."""

    ahead: bool
    probe: bool
    rate: CarryRate


def rate(history: Sequence[MadeAhead]) -> CarryRate:
    """The carry rate of the last `WINDOW` batches of `history` (oldest first) that had an edit to carry."""
    judged = [b for b in history if b.edits][-WINDOW:]
    return CarryRate(sum(b.did_carry for b in judged), len(judged))


def stopped(history: Sequence[MadeAhead]) -> bool:
    """Running ahead is stopped: the rate is low and the last batch made ahead (a probe, maybe) did not carry."""
    judged = [b for b in history if b.edits]
    return rate(judged).low and not judged[-1].did_carry


def plan(history: Sequence[MadeAhead], next_cycle: int) -> Plan:
    """Whether `next_cycle`'s batch is made ahead, given the batches made ahead before it (oldest first)."""
    r = rate(history)
    if not stopped(history):
        return Plan(True, False, r)
    last = max(b.cycle for b in history if b.edits)
    probe = next_cycle - last >= PROBE_EVERY
    return Plan(probe, probe, r)
