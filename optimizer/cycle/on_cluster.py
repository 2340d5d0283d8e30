"""K > 1 candidates with `executor: ray`: each candidate's mutation and its eval run on the cluster, while its
worktree, the decision, the commit and the line stay on the daemon.

The batch is that of autoresearch.optimizer.cycle.in_worktrees (its site, its window, its rebase and its
merges), with one difference: each candidate's mutator is a `RemoteMutator`, which ships a snapshot of the
candidate's worktree (as an eval's is shipped) and runs the configured mutator in it on a worker
(autoresearch.optimizer.cycle.remote_mutation); the artifact it made is written back into the worktree, where
the scope guard checks it and the eval, already on the cluster, ships it again with its tests.

A node lost during a mutation loses what that attempt did, its spend included (nothing of it comes back): the
mutation is run again, up to `executor.max_retries` times, and each lost attempt is said in the run's log; one
lost more often than that is the candidate's error (`node-lost`).
"""

from __future__ import annotations

from dataclasses import dataclass

from autoresearch.mutators.base import MutationRequest, MutationResult
from autoresearch.mutators.config import MutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted, MutatorUnusable
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle import in_worktrees
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
        if len(context) > self.config.executor.max_snapshot_mb * 1e6:
            raise MutationFailed(
                f"what the mutator reads (the run just decided, the history) is over field "
                f"'executor.max_snapshot_mb' ({self.config.executor.max_snapshot_mb:g} MB) compressed",
                "too-big",
            )
        shipped = executor.ship(fresh=True)
        lost = 0
        while True:
            try:
                outcome = executor.call_once(shipped, mutate_in_tree, self.mutator, request, context)
                break
            except NodeLost as exc:
                lost += 1
                get().warning(_lost_attempt(request, lost), error=str(exc)[:300])
                if lost > self.config.executor.max_retries:
                    raise MutationFailed(
                        f"its Ray node was lost {lost} times during the mutation (the last: {exc}); "
                        "what the lost attempts spent is not known",
                        "node-lost",
                    ) from None
            except TaskFailed as exc:  # the task itself raised there: a fault of ours, or of the worker's setup
                raise MutationFailed(f"the mutation failed on the Ray cluster: {exc}") from None
        return _taken_back(outcome, request)


def _taken_back(outcome: Outcome, request: MutationRequest) -> MutationResult:
    """The mutation as it ended on the worker, its artifact, changelog and logs put back here (a failed one's
    too: its patch is saved like any candidate's), or raised as the failure it was."""
    put_back(outcome, request)
    if outcome.failure is not None:
        failure = outcome.failure
        if failure.reason == "exhausted":
            raise MutationsExhausted(failure.message)
        if failure.reason == "unusable":
            raise MutatorUnusable(failure.message)
        raise MutationFailed(failure.message, failure.reason, failure.spent)
    assert outcome.result is not None
    if outcome.outside:
        raise MutationFailed(
            f"the mutator changed files outside the artifact on the Ray worker: {', '.join(outcome.outside[:5])}",
            "out-of-scope",
            outcome.result,
        )
    return outcome.result


def _lost_attempt(request: MutationRequest, count: int) -> str:
    return (
        f"cycle {request.cycle}, candidate {request.sibling}: a Ray node was lost during the mutation "
        f"(attempt {count}); what that attempt spent is not known, and not counted"
    )
