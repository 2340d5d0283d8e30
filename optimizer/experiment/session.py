"""The one owner of a running experiment's state: what the loop knows between two cycles.

Every change of a session goes through a method here (the cycle asks, the
session writes), so that what state.json says, what the history holds and
where HEAD is are changed together and in one place. autoresearch.optimizer.startup builds
a session; autoresearch.optimizer.cycle uses it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from autoresearch.mutators.base import Mutator
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.daemonlog import bind, get
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.optimizer.experiment.busy import CheckoutClaim
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.holdout import Holdout
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.experiment.mirror import Mirror
from autoresearch.optimizer.experiment.state import Phase, State, Status
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard.checkoutwatch import CheckoutWatch
from autoresearch.optimizer.guard.ledger import Ledger
from autoresearch.optimizer.guard.scope import Guard
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.sandbox import Sandbox
from autoresearch.policies.stop import StopReason
from autoresearch.runs.cache import SampleCache
from autoresearch.runs.evaluators import Evaluator
from autoresearch.trajectory import page_parts, testscores
from autoresearch.trajectory.drawn import Rows
from autoresearch.trajectory.iterations import Iteration

CHART_INTERVAL_S = 3.0
CHART_SHARE = 0.05  # of the loop's time, at most, spent redrawing the live page (see Session.chart_due)


@dataclass
class Session:
    config: Config
    ws: Workspace
    paths: ExperimentPaths
    evaluator: Evaluator
    mutator: Mutator
    state: State
    history: History
    lock: Lock
    cache: SampleCache  # eval samples by (eval, artifact, index); see autoresearch.optimizer.cycle.measure
    head: tuple[str | None, str]  # (branch, commit) where this run left HEAD; see cycle.conclude.require_head
    vault: Vault  # what no mutator reaches: the lock, the guard's state, the mirror of the experiment's files
    claim: CheckoutClaim  # this run's claim on the checkout it works in
    ledger: Ledger  # appends the lines of iterations.jsonl, copied where they outlive the daemon
    baseline_rows: list[JSONObject] = field(
        default_factory=list
    )  # HEAD's train rows: what a candidate is compared with
    deadline_s: float | None = None  # epoch seconds; from stop.until / stop.max_hours at start
    holdout: Holdout | None = None  # tests the mutator never sees; see autoresearch.optimizer.experiment.holdout
    baseline_holdout: list[JSONObject] = field(default_factory=list)  # HEAD's held-out rows
    stale_baseline: bool = False  # HEAD's results came from another eval: measured again before any decision
    chart_written_at: float = float("-inf")  # monotonic time the last live chart rewrite began
    chart_took_s: float = 0.0  # how long it took
    guard: Guard | None = (
        None  # the mutator's scope guard, opened before the first mutation (autoresearch.optimizer.guard.scope)
    )
    sandbox: Sandbox | None = None  # the command mutator's; see autoresearch.optimizer.startup.sandbox
    mirrored: bool = True  # False once a mirror proved impossible here (no hard links): said once
    state_writer: state_file.Writer = field(init=False)
    chart_rows: Rows = field(init=False)  # what the live chart draws of each line, read as it is appended
    chart_scores: testscores.Kept = field(init=False)  # each line's per-test scores, read once for the live chart
    chart_table: page_parts.KeptRows = field(init=False)  # each line's row of the live chart's table, drawn once
    said: set[str] = field(default_factory=set)  # the warnings said once per run (see `warn_once`)
    # `search.parents: pareto`: the stored candidates whose edit did not carry onto a HEAD, by name: that HEAD, so
    # that they are not merged again until it moves (autoresearch.optimizer.cycle.parents)
    not_carrying: dict[str, str] = field(default_factory=dict)
    _saying: threading.Lock = field(default_factory=threading.Lock)  # parallel candidates mutate in threads
    _mirror: Mirror | None = None  # made on first use, and kept: it remembers what it listed
    throwaway: Throwaway | None = None  # a sandboxed mutator's checkout, kept between cycles; removed at close
    checkout_watch: CheckoutWatch | None = None  # its inotify watch (autoresearch.optimizer.guard.checkoutwatch)

    def __post_init__(self) -> None:
        self.state_writer = state_file.Writer(self.paths.state)
        self.chart_rows = Rows(self.paths.iterations)
        self.chart_scores = testscores.Kept(self.paths.iterations.parent)
        self.chart_table = page_parts.kept_rows(self.paths.iterations.parent)

    def warn_once(self, *messages: str) -> None:
        """Each of `messages` said as a warning the first time this run meets it: a command mutator whose
        spend goes uncounted says so once, not every cycle."""
        with self._saying:
            new = [m for m in dict.fromkeys(messages) if m not in self.said]
            self.said.update(new)
        for message in new:
            get().warning(message)

    def close(self) -> None:
        if self.checkout_watch is not None:
            self.checkout_watch.close()
        if self.throwaway is not None:
            self.throwaway.drop()
        if self.guard is not None:
            self.guard.close()
        if self._mirror is not None:
            self._mirror.close()
        self.chart_rows.close()
        self.chart_scores.close()
        self.chart_table.close()
        self.history.close()
        self.claim.release()
        self.lock.release()

    def set_phase(self, phase: Phase) -> None:
        bind(phase=phase)
        self.state.phase = phase
        self.state.phase_started_at = utc_now()
        self.state_writer.soon(self.state)

    @property
    def cache_root(self) -> Path:
        """The result cache and its signing key: guarded, and never shown to a mutator (see autoresearch.runs.cache)."""
        return self.cache.root.parent

    def scope_guard(self) -> Guard:
        """The scope guard of this run, opened (every guarded path read once) before its first mutation."""
        if self.guard is None:
            self.guard = Guard(self.ws, self.paths.results_dir, self.cache_root, self.vault.guard)
            self.guard.open()
        return self.guard

    @property
    def mirroring(self) -> bool:
        """Whether the experiment's files are mirrored around each mutation: only where the mutator can reach
        them. A sandboxed one never sees the results directory (autoresearch.optimizer.startup.sandbox), and
        its mirror, a folder and a link a run directory and two listings a cycle, guarded nothing; the
        session's opening removes the one an earlier run left (autoresearch.optimizer.startup.opening)."""
        return self.mirrored and self.sandbox is None

    @property
    def mirror(self) -> Mirror:
        """Hard links to the experiment's files, out of a mutator's reach (autoresearch.optimizer.experiment.mirror)."""
        if self._mirror is None:
            self._mirror = Mirror(self.paths.root, self.vault.mirror, watched=True)
        return self._mirror

    def set_baseline(self, rows: list[JSONObject]) -> None:
        """The original's train rows: what the first candidate is compared with."""
        self.baseline_rows = rows

    @property
    def eval_key(self) -> str:
        """The eval this run measures with: written on every line (see autoresearch.optimizer.cycle.keys)."""
        return self.cache.eval_key

    def rebased(self, rows: list[JSONObject], held: list[JSONObject]) -> None:
        """HEAD measured again under this run's eval: its results are the baseline from now on."""
        self.baseline_rows, self.baseline_holdout, self.stale_baseline = rows, held, False

    def set_holdout(self, holdout: Holdout, held: list[JSONObject]) -> None:
        """The split drawn from the original's results, and the original's held-out rows."""
        self.holdout, self.baseline_holdout = holdout, held

    def kept(self, sha: str, rows: list[JSONObject], held: list[JSONObject]) -> None:
        """A KEEP committed as `sha`: the new HEAD, and its results the new baseline (state.json's commits
        are the history's, `sha` among them once its line is `recorded`)."""
        self.head = (self.head[0], sha)
        self.baseline_rows, self.baseline_holdout = rows, held

    def adopt(self, entry: Iteration) -> None:
        """A line now in iterations.jsonl joins the history."""
        self.history.add(entry)

    def recorded(self, entry: Iteration) -> None:
        """After a cycle's line is written: the history, then state.json, which follows from it."""
        self.adopt(entry)
        state_file.summarize(self.state, self.history)
        self.state.last_cycle_s = entry.duration_s
        self.state.phase = "idle"
        self.state_writer.soon(self.state)

    def warn(self, warning: str) -> None:
        self.state.warning = warning

    def chart_due(self, live: bool) -> bool:
        """The live page reloads itself every 10 s, so rewriting it more often than every few seconds
        only costs the loop time; and since a page draws every line, it is rewritten less often as the
        night grows, so that it never takes more than `CHART_SHARE` of the loop's time. The final page is
        always written."""
        now = time.monotonic()
        if live and now - self.chart_written_at < max(CHART_INTERVAL_S, self.chart_took_s / CHART_SHARE):
            return False
        self.chart_written_at = now
        return True

    def chart_written(self) -> None:
        """The page `chart_due` allowed is on disk: how long it took paces the next."""
        self.chart_took_s = time.monotonic() - self.chart_written_at

    def finish(self, status: Status, stop_reason: StopReason) -> None:
        """The run's end, on disk at once (the chart and `status` read it next)."""
        self.state.status = status
        self.state.stop_reason = stop_reason
        self.state.phase = "done"
        self.state_writer.now(self.state)
