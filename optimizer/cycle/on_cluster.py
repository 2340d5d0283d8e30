"""Candidates with `executor: ray`: each candidate's mutation and its eval run on the cluster, while its tree
(a worktree, or the checkout for a lone candidate), the decision, the commit and the line stay on the daemon.

The batch is that of autoresearch.optimizer.cycle.in_worktrees (its site, its window, its rebase and its
merges), or for K = 1 that of autoresearch.optimizer.cycle.in_checkout, with one difference: each candidate's
mutator is a `RemoteMutator`, which ships a snapshot of the candidate's tree (as an eval's is shipped) and runs
the configured mutator in it on a worker (autoresearch.optimizer.cycle.remote_mutation); the artifact it made is
written back into the tree, where the scope guard checks it as it checks a local mutator's, and the eval,
already on the cluster, ships it again with its tests.

A node lost during a mutation loses what that attempt did, its spend included (nothing of it comes back): the
mutation is run again, up to `executor.max_retries` times, and each lost attempt is said in the run's log and
counted on the cycle's line (`mutation_lost_attempts`); one lost more often than that is the candidate's error
(`node-lost`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from autoresearch.mutators.base import MutationRequest, MutationResult
from autoresearch.mutators.config import MutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted, MutatorUnusable
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle import in_checkout, in_worktrees
from autoresearch.optimizer.cycle.batch import Batch
from autoresearch.optimizer.cycle.remote_mutation import Outcome, mutate_in_tree, pack_context, put_back
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.runs.executors import NodeLost, TaskFailed


def new_batch(session: Session, number: int) -> Batch:
    """K worktrees at HEAD, each candidate's mutator running on the cluster."""
    batch = in_worktrees.new_batch(session, number)
    for s in batch.siblings:
        s.mutator = RemoteMutator(session.config, in_worktrees.mutator_config(session, s.strategy))
    return batch


def lone_batch(session: Session, number: int) -> Batch:
    """K = 1: the lone candidate in the checkout, as on one machine, its mutator running on the cluster."""
    batch = in_checkout.new_batch(session, number)
    batch.siblings[0].mutator = RemoteMutator(session.config, session.config.mutator)
    return batch


@dataclass(frozen=True)
class RemoteMutator:
    """The configured mutator, run as one Ray task in a snapshot of the tree the request names."""

    config: Config
    mutator: MutatorConfig

    def check(self) -> None:
        """Nothing here: the mutator runs on the workers (the session's own mutator was checked at start)."""

    def mutate(self, request: MutationRequest) -> MutationResult:
        executor = self.config.executor_at(request.repo_root)
        assert executor is not None, "only a run on ray makes remote mutators"
        context = pack_context(request)
        limit = self.config.executor
        if len(context) > limit.max_snapshot_mb * 1e6:
            raise MutationFailed(
                f"what the mutator reads (the run just decided, the history) is over {limit.max_snapshot_mb:g} MB "
                f"compressed ({limit.field('executor.max_snapshot_mb')})",
                "too-big",
            )
        shipped = executor.ship(fresh=True)
        lost = 0

        def said(exc: NodeLost, count: int) -> None:
            nonlocal lost
            lost = count
            get().warning(_lost_attempt(request, count), error=str(exc)[:300])

        try:
            outcome = executor.call_unslotted(shipped, mutate_in_tree, self.mutator, request, context, lost=said)
        except NodeLost as exc:
            raise MutationFailed(
                f"its Ray node was lost {lost} times during the mutation (the last: {exc}); "
                "what the lost attempts spent is not known",
                "node-lost",
                _with_lost(None, lost),
            ) from None
        except TaskFailed as exc:  # the task itself raised there: a fault of ours, or of the worker's setup
            raise MutationFailed(
                f"the mutation failed on the Ray cluster: {exc}", spent=_with_lost(None, lost)
            ) from None
        return _taken_back(outcome, request, lost)


def _taken_back(outcome: Outcome, request: MutationRequest, lost: int) -> MutationResult:
    """The mutation as it ended on the worker, its artifact, changelog and logs put back here (a failed one's
    too: its patch is saved like any candidate's), or raised as the failure it was; either way with the
    attempts `lost` before it, which its line counts."""
    put_back(outcome, request)
    if outcome.failure is not None:
        failure = outcome.failure
        if failure.reason == "exhausted":
            raise MutationsExhausted(failure.message)
        if failure.reason == "unusable":
            raise MutatorUnusable(failure.message)
        raise MutationFailed(failure.message, failure.reason, _with_lost(failure.spent, lost))
    assert outcome.result is not None
    result = replace(outcome.result, lost_attempts=lost)
    if outcome.outside:
        raise MutationFailed(
            f"the mutator changed files outside the artifact on the Ray worker: {', '.join(outcome.outside[:5])}",
            "out-of-scope",
            result,
        )
    return result


def _with_lost(spent: MutationResult | None, lost: int) -> MutationResult | None:
    """A failed mutation's spend with the attempts lost before it (one that reported none: none but those)."""
    if not lost:
        return spent
    return replace(spent, lost_attempts=lost) if spent is not None else MutationResult("", lost_attempts=lost)


def _lost_attempt(request: MutationRequest, count: int) -> str:
    return (
        f"cycle {request.cycle}, candidate {request.sibling}: a Ray node was lost during the mutation "
        f"(attempt {count}); what that attempt spent is not known, and not counted"
    )
