"""Whether the next cycle's batch is made ahead, by how the batches made ahead before it carried
(autoresearch.policies.overlap): read from the lines, so that a restarted run keeps it, and from the batch
this cycle carried, which is on no line yet. The log says when running ahead stops, probes and resumes."""

from __future__ import annotations

from autoresearch.optimizer.cycle.batch import Batch
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.policies import overlap
from autoresearch.policies.overlap import MadeAhead


def wanted(session: Session, batch: Batch) -> bool:
    """Whether the batch of the cycle after `batch`'s is made ahead, while `batch`'s is evaluated and decided."""
    before = session.history.made_ahead
    now = before + ([MadeAhead(batch.number, batch.carry.edits, batch.carry.carried)] if batch.carry else [])
    plan = overlap.plan(now, batch.number + 1)
    rate = {"carried": plan.rate.carried, "of_batches": plan.rate.batches}
    if overlap.stopped(now) and not overlap.stopped(before):
        get().warning(
            f"no longer mutating ahead: {plan.rate} onto the new HEAD (a batch none of whose edits carries is "
            f"mutated again, paid twice); a batch is made ahead {overlap.PROBE_EVERY} cycles after the last, to probe",
            **rate,
        )
    elif overlap.stopped(before) and not overlap.stopped(now):
        get().info("mutating ahead again: the batch made ahead to probe carried", **rate)
    elif plan.probe:
        get().info("mutating ahead to probe whether edits made ahead carry now", **rate)
    return plan.ahead
