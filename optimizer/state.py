"""state.json (what the daemon is doing now) and the experiment lock.

state.json is rewritten atomically at every phase change so `status` can
answer from it alone. The lock is an flock on a file: the kernel drops it when
the process dies, so a crashed daemon never leaves a lock behind that blocks
the next run.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from optimizer.errors import InvalidInput
from trajectory import atomic
from trajectory.iterations import utc_now


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


def _holder(raw: bytes) -> str:
    try:
        info = json.loads(raw)
        return f"pid {info['pid']} (since {info['since']})"
    except (ValueError, KeyError, TypeError):
        return "another process"


def holder(path: Path) -> int | None:
    """The pid holding the experiment lock, or None when nobody does (a stale state.json's pid
    is never trusted: the kernel drops an flock when its process dies)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            return int(json.loads(os.pread(fd, 4096, 0))["pid"])
        except (ValueError, KeyError, TypeError):
            return -1  # held, but the holder has not written its pid yet
    finally:
        os.close(fd)
    return None


class Lock:
    """One loop per experiment. Holds an flock for the life of the process."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None

    def acquire(self, experiment: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(os.pread(fd, 4096, 0))
            os.close(fd)
            raise InvalidInput(f"experiment '{experiment}' is locked by {holder}; stop it first or wait") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "since": utc_now()}).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "Lock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()
