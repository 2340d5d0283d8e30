"""state.json: what the daemon is doing now.

It is rewritten atomically after every phase change so `status` can answer
from it alone; the experiment's lock is in `autoresearch.optimizer.experiment.lockfile`.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticSerializationError

from autoresearch.plumbing import atomic, inplace
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import InvalidInput, NoRoom
from autoresearch.plumbing.redact import redact, redact_tree, secret_values, shown_in_json
from autoresearch.plumbing.surrogates import validate_json
from autoresearch.policies.stop import StopReason

if TYPE_CHECKING:
    from autoresearch.optimizer.experiment.history import History

Status = Literal["running", "finished", "stopped", "failed"]
Phase = Literal["starting", "mutate", "eval", "decide", "idle", "done"]


class State(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)  # built when first read or written: not by `validate`

    experiment: str
    artifact: str
    initial_sha: str
    pid: int = Field(default_factory=os.getpid)
    status: Status = "running"
    stop_reason: StopReason | None = None
    cycle: int = 0
    phase: Phase = "starting"
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
    metric: bool = False  # the eval's score is a metric (`eval.metric`), not a 0-1 score: `status` says so
    goal: Literal["maximize", "minimize"] = "maximize"
    run_start_cycle: int = Field(
        default=0, ge=0
    )  # the experiment's last cycle when this run began: the run's cycles come after it


def summarize(state: State, history: History) -> None:
    """Set what follows from the history alone, so that state.json, `status` and `report` agree from
    the moment a run opens the experiment, whether or not it then makes a cycle."""
    best, original = history.best, history.original
    state.cycle = history.last_cycle
    state.keeps, state.drops, state.errors = history.count("keep"), history.count("drop"), history.count("error")
    state.commits = history.commits  # the history's own list, not a copy: a KEEP's commit joins it with its line
    state.original_score = original.score if original else None
    state.best_score, state.best_cycle = (best.score, best.cycle) if best else (None, None)
    state.baseline_run = best.run_dir if best else None
    state.cost_usd = round(history.spent_usd, 6)


def _render(state: State) -> str:
    state.updated_at = utc_now()
    return _text(state)


# written from the daemon's own words and git's ids, never from text it was given, and read back: masked where
# a secret happened to match (a secret "minimize", a run of hex in a commit), state.json was unreadable (the next
# start refused) or named no commit (`finalize`, the review)
OWN = frozenset(
    {"status", "stop_reason", "phase", "goal", "initial_sha", "commits", "branch"}
    | {"phase_started_at", "started_at", "updated_at", "deadline"}
)


def _text(state: State) -> str:
    """The state's JSON with no secret of the environment (its warning, say, may quote a grader or an
    error); masked only where one may show, as an iterations line is (`redact.shown_in_json`), never in
    the fields of `OWN` nor in the schema's names (a field of another version's, kept, is masked whole)."""
    try:
        text = state.model_dump_json(indent=2)
    except PydanticSerializationError:  # a lone surrogate (its warning quoting a test id): `write_text` escapes it
        text = json.dumps(state.model_dump(mode="json"), indent=2, ensure_ascii=False)
    if shown_in_json(text):
        secrets = secret_values()
        fields = {k: v if k in OWN else redact_tree(v, secrets) for k, v in state.model_dump(mode="json").items()}
        # the schema's names are no secret (one matched, `"***": ...`, the file lacked a field): only another's
        names = {k: k if k in State.model_fields else redact(k, secrets) for k in fields}
        text = json.dumps({names[k]: v for k, v in fields.items()}, indent=2, ensure_ascii=False)
    return text + "\n"


def _write(path: Path, text: str) -> None:
    """Not fsynced: state.json is a view for `status`; iterations.jsonl and git are the record."""
    atomic.write_text(path, text, durable=False)


class Writer:
    """state.json for one run, with phase changes coalesced.

    `soon` puts the state on disk within `delay_s`: a phase that ends sooner (a
    cache hit, a decision, a fast eval) is never written, since nobody could have
    seen it, and replacing a file costs more than the rest of such a phase
    (bench/loop_overhead.py). `now` writes at once and drops what is pending; the
    loop uses it when it starts and when it ends. A kill in between loses at most
    `delay_s` of this view, which a restart rebuilds from the history anyway.

    `soon` keeps a copy of the state as it was (its fields' values, and how many commits its list held: the
    list, which only grows, is shared) and the timer renders the copy it writes: rendering at every `soon`,
    four times a cycle, was a sixth of a line's recording, and most of those texts were never written.
    """

    def __init__(self, path: Path, delay_s: float = 0.25):
        self.path, self.delay_s = path, delay_s
        self._lock = threading.Lock()  # one write at a time, in the order they were asked for
        self._pending: tuple[State, int] | None = None  # the state as it was when `soon` was called, its commits
        self._timer: threading.Timer | None = None
        self._failed: NoRoom | None = None  # the timer's write found no room: the loop's next call raises it

    def soon(self, state: State) -> None:
        state.updated_at = utc_now()
        kept = (state.model_copy(), len(state.commits))
        with self._lock:
            self._raise_failed()
            self._pending = kept
            if self._timer is None:
                self._timer = threading.Timer(self.delay_s, self._write_pending)
                self._timer.daemon = True
                self._timer.start()

    def now(self, state: State) -> None:
        text = _render(state)
        with self._lock:
            self._raise_failed()
            self._pending = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            _write(self.path, text)

    def _write_pending(self) -> None:
        with self._lock:
            kept, self._pending, self._timer = self._pending, None, None
            if kept is not None:  # None: `now` came first and wrote a newer state
                state, commits = kept
                # the commits as kept, copied in one step: a KEEP's commit may join the shared list at any moment,
                # between a look at its length and the render too (the loop records a line meanwhile)
                state = state.model_copy(update={"commits": state.commits[:commits]})
                try:
                    _write(self.path, _text(state))
                except NoRoom as exc:  # raised in the timer's thread it was a traceback, and the loop went on
                    self._failed = exc

    def _raise_failed(self) -> None:
        failed, self._failed = self._failed, None
        if failed is not None:
            raise failed


def load(path: Path) -> State | None:
    try:
        data = inplace.whole(path, "experiment state")
        return None if data is None else validate_json(State, data)
    except ValueError as exc:
        raise InvalidInput(
            f"{path}: experiment state is unreadable ({exc.__class__.__name__}); move it away to start over"
        ) from None
