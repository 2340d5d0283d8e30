"""A task lost with its node, as `RayExecutor.call` sees it (`NodeLost`), with no cluster: run again by the daemon
up to `executor.max_retries` times, each lost attempt counted and said in the log (the real two-node cluster loses
a node in test_ray.py)."""

from __future__ import annotations

import logging

import pytest

from autoresearch.runs.executors import LostAttempts, NodeLost
from autoresearch.runs.executors.cluster import RayExecutor
from autoresearch.runs.executors.config import ExecutorConfig


def lost_first(times: int):
    """An attempt whose node is lost the first `times` times it runs, and that answers after."""
    runs = []

    def attempt() -> str:
        runs.append(1)
        if len(runs) <= times:
            raise NodeLost(f"Ray: node lost ({len(runs)})")
        return "rows"

    return attempt, runs


class Heard(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def executor(tmp_path, retries: int) -> RayExecutor:
    return RayExecutor(ExecutorConfig(type="ray", max_retries=retries), tmp_path, [])


def test_a_lost_attempt_runs_again_and_is_counted_and_said(tmp_path):
    attempt, runs = lost_first(2)
    lost = LostAttempts()
    heard = Heard()
    log = logging.getLogger("autoresearch.runs")  # heard here: the daemon's logging may stop it propagating
    log.addHandler(heard)
    try:
        assert executor(tmp_path, 2).again_when_lost(attempt, lost.of("test t3")) == "rows"
    finally:
        log.removeHandler(heard)
    assert (len(runs), lost.count, lost.noted()) == (3, 2, {"lost_attempts": 2})
    said = [(r.levelname, r.getMessage()) for r in heard.records]
    assert said == [
        (
            "WARNING",
            f"a Ray node was lost during test t3 (attempt {n}); what that attempt spent is not known, and not counted"
            f" (Ray: node lost ({n}))",
        )
        for n in (1, 2)
    ]


def test_a_task_lost_more_often_than_the_retries_allow_raises_with_every_loss_counted(tmp_path):
    attempt, runs = lost_first(5)
    lost = LostAttempts()
    with pytest.raises(NodeLost, match=r"node lost \(3\)"):
        executor(tmp_path, 2).again_when_lost(attempt, lost.of("test t3"))
    assert (len(runs), lost.count) == (3, 3)


def test_nothing_lost_notes_nothing(tmp_path):
    attempt, runs = lost_first(0)
    lost = LostAttempts()
    assert executor(tmp_path, 0).again_when_lost(attempt, lost.of("the eval")) == "rows"
    assert (len(runs), lost.noted()) == (1, {})
