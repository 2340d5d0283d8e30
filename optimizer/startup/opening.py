"""Opening an experiment for a run: the lock taken, a crash repaired, the session built from the history.

The session starts from what the files say (iterations.jsonl, state.json, the
baseline's results); HEAD must still hold the last KEEP's artifact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from autoresearch.mutators import homes
from autoresearch.mutators.base import Mutator
from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle.measure import open_cache
from autoresearch.optimizer.deadline import deadline
from autoresearch.optimizer.experiment import holdout
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.optimizer.experiment.busy import CheckoutClaim
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.experiment.putback import put_back_history
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.experiment.state import State
from autoresearch.optimizer.experiment.vault import Vault, checkout_lock
from autoresearch.optimizer.gitrepo import worktree
from autoresearch.optimizer.gitrepo.heads import head_ref
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_id, exclude, require_clean_artifact
from autoresearch.optimizer.guard.ledger import Ledger
from autoresearch.optimizer.startup import interrupted, sandbox
from autoresearch.optimizer.startup.checks import check, crashed, locate, preflight, require_untracked_results
from autoresearch.optimizer.startup.reconcile import reconcile
from autoresearch.plumbing import faults, owned, trees
from autoresearch.plumbing.errors import IntegrityError, InvalidInput
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import META, ExperimentPaths
from autoresearch.policies.stop import continues_run
from autoresearch.runs.errors import BadResults
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.results import index_path, load_rows, rows_digest
from autoresearch.trajectory import iterations


@dataclass(frozen=True)
class ConfigSource:
    """The file the run's config was read from, how to read it again (the command line's overrides applied), and
    its bytes just before that read (None: there was no file to read): a file that differs from them once the
    start holds its locks (a recovery's put-back, this start's or another's) is read anew (`open_session`)."""

    path: Path
    read: Callable[[], Config]
    text: bytes | None

    @classmethod
    def reading(cls, path: Path, read: Callable[[], Config]) -> tuple[Config, ConfigSource]:
        """The config `read` returns, and its source. The bytes are taken before the read: a file written in
        between then differs from them, and is read again; taken after, it would pass for the one read."""
        text = _contents(path)
        return read(), cls(path.resolve(), read, text)

    def changed(self) -> bool:
        """Whether the file is no longer the one the config was read from."""
        return _contents(self.path) != self.text


def _contents(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:  # none there, or not a file: compared as such (reading it says what is wrong)
        return None


def open_session(config: Config, cwd: Path, restart: bool = False, source: ConfigSource | None = None) -> Session:
    """The experiment locked for this run, repaired if a daemon crashed in it, and its session. When the
    repair puts `source`'s file back (a change since the mutation began, the user's or the mutator's), the
    run reads it again and goes on with the config now on disk, never with the one the repair undid; the
    locks are kept meanwhile (`_reread`). So it does when the file changed since it was read for any other
    reason: another start's repair put it back, and that start ended, between this one's read and its lock."""
    ws, paths, evaluator, mutator = check(config, cwd)
    faults.point("before-lock")  # the tests' point: a start that read the config, stopped before the lock
    vault = Vault.of(ws, paths)
    was_crashed = crashed(paths)
    claim = CheckoutClaim(checkout_lock(ws))
    claim.take(config.experiment_name, paths.results_dir)  # before anything is written, where the other one guards
    lock = Lock(paths.lock, vault.lock)
    try:
        exclude(ws.root, config.results_dir)
        lock.acquire(config.experiment_name)
    except BaseException:
        claim.release()
        raise
    try:
        _refuse_another_undo(ws, vault, paths, config)
        records = interrupted.restore_records(vault, paths)  # the log among them: before it is opened
        daemonlog.write_to(paths.log)  # the experiment is ours from here: what the resume repairs goes in its log
        put_back_history(paths, vault)
        for area in homes.clear_leftovers():  # a daemon killed mid-mutation, of this experiment or another
            daemonlog.get().info("removed a dead daemon's copies of the coding agents' homes", folder=str(area))
        for area in owned.clear_leftovers():  # a process killed while a code grader ran, of any experiment
            daemonlog.get().info("removed a dead process's scratch folders", folder=str(area))
        undone = interrupted.pending(vault)  # the last daemon died during a mutation
        if undone and interrupted.finish(ws, vault, records, source.path if source else None) and source:
            faults.point("config-put-back")
        if source is not None and source.changed():  # put back, by this start's repair or by another start's
            config, ws, evaluator, mutator = _reread(config, paths, cwd, source)
        if undone:
            require_untracked_results(ws, config)  # left by `check` until git's index was the daemon's again
            was_crashed = True
        if was_crashed:
            reconcile(config, ws, paths, _history(paths))
        if restart:
            _archive(paths)
            lock.release()
            lock.acquire(config.experiment_name)
        appends = Ledger.open(paths.iterations, vault.iterations)  # after reconcile's lines, and --restart's archive
        history = _history(paths, kept=True)
        require_clean_artifact(ws)
        at = deadline(config.stop.until, config.stop.max_hours, datetime.now().astimezone())
        cache = open_cache(config, ws, paths)
        split = holdout.load(paths.holdout, paths.results_dir, config.experiment_name)
        _check_split(paths, split, history)
        if config.eval.holdout and split is None and history:
            raise InvalidInput(
                f"{config.field('eval.holdout')}: this experiment began without a holdout; --restart to draw one"
            )
        head = (head_ref(ws), ws.head())
        stale = bool(history) and _eval_changed(history, cache.eval_key)
        baseline = _resume_baseline(ws, paths, history, stale) if history else []
        held = _resume_holdout(split, history, stale)
        state = _state(config, ws, paths, history, at)
        shield = sandbox.open_for(config, ws, paths, (cache.root.parent, vault.root.parent))
        sandbox.say_unscoped(config)
        if shield is not None:  # no mirror (Session.mirroring): an earlier run's, stale, is never restored from
            trees.remove(vault.mirror, ignore_errors=True)
        return Session(
            config,
            ws,
            paths,
            evaluator,
            mutator,
            state,
            history,
            lock,
            cache,
            head,
            vault,
            claim,
            appends,
            baseline_rows=baseline,
            deadline_s=at.timestamp() if at else None,
            holdout=split,
            baseline_holdout=held,
            stale_baseline=stale,
            sandbox=shield,
        )
    except BaseException:
        claim.release()
        lock.release()
        raise


def _reread(
    config: Config, paths: ExperimentPaths, cwd: Path, source: ConfigSource
) -> tuple[Config, Workspace, Evaluator, Mutator]:
    """The config on disk (the repair put it back, or it changed since this start read it), read again, and what
    the start's checks make of it, with this start's locks kept: let go and taken again, they let a second start
    that read the config before the repair (the mutator's) reach them in between and run with it. One that names
    another experiment or results directory, or another worktree setting, is refused: its locks are not these
    (its own start reads it)."""
    again = source.read()
    ws, where = locate(again, cwd)
    if where.root != paths.root or again.worktree != config.worktree:
        raise IntegrityError(
            f"{source.path}: the config now on disk (put back by a recovery as it was when an interrupted mutation "
            "began, or changed since this start read it) names "
            f"experiment {again.experiment_name!r} in {again.results_dir!r}"
            f"{', with --worktree' if again.worktree else ''}, not the one this start opened "
            f"({config.experiment_name!r} in {config.results_dir!r}); start again: the next start runs with it"
        )
    evaluator, mutator = preflight(again, ws.root)
    return again, ws, evaluator, mutator


def _refuse_another_undo(ws: Workspace, vault: Vault, paths: ExperimentPaths, config: Config) -> None:
    """Refused while another experiment's mutation in this checkout is left undone (`interrupted.elsewhere`):
    its mutator may have rewritten this very config to name this experiment."""
    others = interrupted.elsewhere(ws, vault)
    if others:
        raise IntegrityError(
            f"a daemon of another experiment in this checkout was killed during a mutation (run directory "
            f"{others[0]}), and what its mutator changed outside the artifact is not undone yet; that mutator may "
            f"have rewritten {config.source} to name this experiment ({paths.root}): check it (`git diff`), "
            "put back the one that names the interrupted experiment, and start it: its start undoes the rest"
        )


def _history(paths: ExperimentPaths, kept: bool = False) -> History:
    """`kept`: the session's, held all night: its rows on disk beside iterations.jsonl."""
    return History(iterations.read(paths.iterations)[0], paths.iterations.parent if kept else None)


def _state(config: Config, ws: Workspace, paths: ExperimentPaths, history: History, at: datetime | None) -> State:
    """A fresh state.json view, rebuilt from the history so that a lost state file loses nothing."""
    previous = state_file.load(paths.state) if history else None
    original = history.original
    state = State(
        experiment=config.experiment_name,
        artifact=config.artifact,
        initial_sha=(original.commit if original else None) or ws.head(),
        run_start_cycle=_run_start(previous, history),
    )
    state_file.summarize(state, history)
    if previous:
        state.started_at = previous.started_at
    if config.worktree:
        state.branch = worktree.branch(config.experiment_name)
    state.deadline = at.astimezone(timezone.utc).isoformat(timespec="seconds") if at else None
    state.budget_usd = config.stop.budget_usd
    state.metric, state.goal = config.eval.metric is not None, config.eval.goal
    return state


def _run_start(previous: State | None, history: History) -> int:
    """Where this run's cycles begin: after the last run's start when that run was interrupted (it
    goes on), else after the last cycle (a new run, with fresh counts for the stop rules)."""
    if previous and continues_run(previous.status, previous.stop_reason):
        return min(previous.run_start_cycle, history.last_cycle)
    return history.last_cycle


def _eval_changed(history: History, key: str) -> bool:
    """Whether HEAD's results came from another eval than this run's (or from a version that did not
    record which): then HEAD is measured again before any decision (autoresearch.optimizer.cycle.head.rebaseline)."""
    best = history.best
    return best is not None and best.eval_key != key


def _resume_baseline(ws: Workspace, paths: ExperimentPaths, history: History, stale: bool) -> list[JSONObject]:
    """The last KEEP's results, after checking that HEAD still holds that KEEP's artifact; none when
    they came from another eval (`stale`): HEAD is measured again instead."""
    best = history.best
    commit = best.commit if best else None
    if best is None or not commit:
        raise IntegrityError(f"{paths.iterations}: no KEEP with a commit to resume from; use --restart")
    try:
        same = artifact_id(ws, commit) == artifact_id(ws)
    except IntegrityError:
        same = False
    if not same:
        raise IntegrityError(
            f"the artifact at HEAD is not the one of the last KEEP (cycle {best.cycle}, {commit[:10]}); "
            "it was changed outside autoresearch: use --restart to start a new experiment from HEAD"
        )
    if stale:
        return []
    run_dir = paths.run_dir(best.run_dir)
    if best.rows_sha256 and rows_digest(run_dir) != best.rows_sha256:  # rewritten since the decision
        raise IntegrityError(
            f"{index_path(run_dir)}: the results of the last KEEP (cycle {best.cycle}) changed after it was "
            "decided (not by autoresearch); put them back, or use --restart"
        )
    try:
        return load_rows(run_dir)
    except BadResults as exc:
        raise IntegrityError(
            f"the baseline results of cycle {best.cycle} are gone or damaged ({exc}); use --restart"
        ) from None


def _check_split(paths: ExperimentPaths, split: holdout.Holdout | None, history: History) -> None:
    """The split (holdout.json) must be the one the last KEEP was decided with: rewritten since (by hand, or by a
    process an unsandboxed mutator left running), it would show the mutator tests it never saw, against a
    baseline split the old way; removed, every test. Lines of older versions hold no digest: not checked."""
    best = history.best
    if best is None or not best.holdout_sha256 or (split is not None and split.sha256 == best.holdout_sha256):
        return
    what = "is gone" if split is None else "changed"
    raise IntegrityError(
        f"{paths.holdout}: the held-out split of the last KEEP (cycle {best.cycle}) {what} after it was decided "
        "(not by autoresearch); put it back, or use --restart"
    )


def _resume_holdout(split: holdout.Holdout | None, history: History, stale: bool) -> list[JSONObject]:
    """The last KEEP's held-out rows (the holdout's baseline), checked as `_resume_baseline` checks its rows."""
    best = history.best
    if split is None or best is None or stale:
        return []
    if best.holdout_rows_sha256 and rows_digest(split.root / best.run_dir) != best.holdout_rows_sha256:
        raise IntegrityError(
            f"{index_path(split.root / best.run_dir)}: the held-out results of the last KEEP (cycle {best.cycle}) "
            "changed after it was decided (not by autoresearch); put them back, or use --restart"
        )
    return split.rows_of(best.run_dir)


def _archive(paths: ExperimentPaths) -> None:
    """--restart keeps the old experiment beside the new one instead of deleting it (one with no
    history yet is only its lock: nothing to keep)."""
    if paths.iterations.exists():
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        target, n = paths.root.with_name(f"{paths.root.name}.restarted-{stamp}"), 1
        while target.exists():  # two restarts within a second
            n += 1
            target = paths.root.with_name(f"{paths.root.name}.restarted-{stamp}-{n}")
        paths.root.rename(target)
        (target / META / "lock").unlink(missing_ok=True)  # a link to the lock this run holds: not that experiment's
