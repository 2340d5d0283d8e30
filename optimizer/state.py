"""state.json: what the daemon is doing now.

It is rewritten atomically at every phase change so `status` can answer from
it alone; the experiment's lock is in `optimizer.lockfile`.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from optimizer.errors import InvalidInput
from trajectory import atomic
from trajectory.clock import utc_now


class State(BaseModel):
    model_config = ConfigDict(extra="allow")

    experiment: str
    artifact: str
    initial_sha: str
    pid: int = Field(default_factory=os.getpid)
    status: str = "running"  # running | finished | stopped | failed
    stop_reason: str | None = None
    cycle: int = 0
    phase: str = "starting"  # eval | compare | decide | mutate | idle
    phase_started_at: str = Field(default_factory=utc_now)
    started_at: str = Field(default_factory=utc_now)
    updated_at: str = Field(default_factory=utc_now)
    original_score: float | None = None
    best_score: float | None = None
    best_cycle: int | None = None
    baseline_run: str | None = None
    commits: list[str] = Field(default_factory=list)
    keeps: int = 0
    drops: int = 0
    errors: int = 0
    cost_usd: float = 0.0
    budget_usd: float = 0.0  # 0 = no budget
    deadline: str | None = None  # ISO UTC; no cycle starts that would cross it
    last_cycle_s: float | None = None  # duration of the most recent cycle
    warning: str | None = None
    branch: str | None = None  # set when the experiment runs in its own worktree


def save(path: Path, state: State) -> None:
    """Not fsynced: state.json is a view for `status`; iterations.jsonl and git are the record."""
    state.updated_at = utc_now()
    atomic.write_text(path, state.model_dump_json(indent=2) + "\n", durable=False)


def load(path: Path) -> State | None:
    try:
        return State.model_validate_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError as exc:
        raise InvalidInput(f"{path}: experiment state is unreadable ({exc.__class__.__name__}); move it away to start over") from None
