"""Everything checked and opened before the first cycle: repository, artifact, lock, history.

A run either starts from a consistent experiment or refuses with one line and
an exit code; nothing in the user's repository is changed by a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from mutators import registry
from mutators.base import Mutator
from providers.prices import price_of
from providers.settings import PROVIDERS
from optimizer import state as state_file
from optimizer import busy, holdout, logs, worktree
from optimizer.config import Config
from optimizer.deadline import deadline
from plumbing.errors import INVALID_INPUT, IntegrityError, InvalidInput, exit_code_for
from plumbing.paths import ExperimentPaths
from optimizer.history import History
from optimizer.holdout import Holdout
from optimizer.scope import Guard
from optimizer.sampling import open_cache
from optimizer.lockfile import Lock, holder, require_free
from optimizer.state import State
from optimizer.workspace import Workspace, artifact_id, exclude, head_ref, open_workspace, require_clean_artifact
from policies.stop import continues_run
from runs import evaluators
from runs.cache import SampleCache
from runs.errors import BadResults
from runs.evaluators import Evaluator
from runs.evaluators.builtin import BuiltinEvaluator
from runs.results import load_rows
from trajectory import iterations


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
    baseline_rows: list[dict] = field(default_factory=list)
    deadline_s: float | None = None  # epoch seconds; from stop.until / stop.max_hours at start
    cache: SampleCache | None = None  # eval samples by (eval, artifact, index); see optimizer.sampling
    holdout: Holdout | None = None  # tests the mutator never sees; see optimizer.holdout
    baseline_holdout: list[dict] = field(default_factory=list)  # HEAD's held-out rows
    chart_written_at: float = float("-inf")  # monotonic time of the last live chart rewrite
    guard: "Guard | None" = None  # the mutator's scope guard, opened before the first mutation (optimizer.scope)
    head: tuple[str | None, str] = (None, "")  # (branch, commit) where this run left HEAD; see cycle.require_head
    state_writer: state_file.Writer = field(init=False)

    def __post_init__(self) -> None:
        self.state_writer = state_file.Writer(self.paths.state)

    def close(self) -> None:
        if self.guard is not None:
            self.guard.close()
        self.lock.release()


def locate(config: Config, cwd: Path) -> tuple[Workspace, ExperimentPaths]:
    """Where the loop works (the checkout, or the experiment's worktree) and where its files go
    (always under the main checkout, so status and the chart are found from there)."""
    ws = open_workspace(cwd, config.artifact)
    paths = ExperimentPaths.of(ws.root, config.results_dir, config.experiment_name)
    _require_results_apart(ws, paths, config)
    if config.worktree:
        ws = open_workspace(worktree.ensure(ws, config.results_dir, config.experiment_name), config.artifact)
    return replace(ws, journal=paths.git_journal), paths


def check(config: Config, cwd: Path) -> tuple[Workspace, ExperimentPaths, Evaluator, Mutator]:
    """The checks that need no lock: nobody runs the experiment, repository, artifact, eval and mutator settings.

    A dirty artifact is refused, unless a crashed daemon left it (the resume repairs that).
    """
    if not config.worktree:
        return _check(config, cwd)
    main = open_workspace(cwd, config.artifact)
    preflight(config, main.root)  # checked before the worktree is made, so that a run that cannot start leaves none
    made = worktree.before(main, config.results_dir, config.experiment_name)
    if made.worktree:
        return _check(config, cwd)
    try:
        return _check(config, cwd)
    except Exception as exc:  # a run that cannot start takes back the worktree it just made
        made.take_back()
        if exit_code_for(exc) != INVALID_INPUT:
            raise
        # what only the new worktree lacks: a file the checkout has but HEAD does not
        raise InvalidInput(f"{exc} (a new worktree holds only what is committed: commit it, or run without --worktree)") from None


def _check(config: Config, cwd: Path) -> tuple[Workspace, ExperimentPaths, Evaluator, Mutator]:
    ws, paths = locate(config, cwd)
    require_free(paths.lock, config.experiment_name)
    if not config.worktree:
        busy.require_no_other(paths.results_dir, config.experiment_name)
    if not crashed(paths):
        require_clean_artifact(ws)
    evaluator, mutator = preflight(config, ws.root)
    return ws, paths, evaluator, mutator


def preflight(config: Config, root: Path) -> tuple[Evaluator, Mutator]:
    """Whatever costs nothing to check before a run (and before anything detaches): the eval's program,
    file, targets and their keys; the mutator's program, file or key, and its price under a budget."""
    evaluator = evaluators.build(config.eval, root)
    evaluator.check()
    mutator = registry.build(config.mutator, root)
    mutator.check()
    _require_priced_mutator(config)
    _require_priced_targets(config, evaluator)
    return evaluator, mutator


def _require_results_apart(ws: Workspace, paths: ExperimentPaths, config: Config) -> None:
    """The results directory is excluded from git and from the scope guard, so it must hold nothing of
    the repository's: no tracked file (`results_dir: evals` would let a mutator edit the eval unseen),
    and, symlinks followed, neither `.git` nor the artifact (the config's spelling is checked at load)."""
    field = f"autoresearch.yaml: field 'results_dir': {config.results_dir!r}"
    tracked = ws.git("--literal-pathspecs", "ls-files", "--", config.results_dir).splitlines()
    if tracked:
        raise InvalidInput(f"{field} holds tracked files ({tracked[0]}, ...); choose a directory of its own, such as .autoresearch")
    real = paths.results_dir.resolve()
    git_dir = Path(ws.git("rev-parse", "--path-format=absolute", "--git-common-dir")).resolve()
    artifact = ws.artifact_path.resolve()
    if real == git_dir or git_dir in real.parents:
        raise InvalidInput(f"{field} leads into .git ({real})")
    if real == artifact or artifact in real.parents or real in artifact.parents:
        raise InvalidInput(f"{field} leads to {real}, which overlaps the artifact")


def _require_priced_mutator(config: Config) -> None:
    """A budget bounds only what has a price: an unpriced model's calls count as $0, so a run with a
    budget would spend without limit all night. Refused before the first eval, with the fix."""
    m = config.mutator
    if not config.stop.budget_usd or m.provider not in PROVIDERS:
        return
    if price_of(m.model, m.price_table()) is None:
        raise InvalidInput(
            f"autoresearch.yaml: field 'mutator.prices': no price is known for {m.model!r}, so stop.budget_usd "
            f"cannot bound what the mutator spends; add {m.model}: {{input_per_mtok: ..., output_per_mtok: ...}}"
        )


def _require_priced_targets(config: Config, evaluator: Evaluator) -> None:
    """The same for the built-in runner's targets and LLM graders: what they spend counts against the
    budgets only if their models have a price."""
    budget = "stop.budget_usd" if config.stop.budget_usd else "eval.budget_usd" if config.eval.budget_usd else None
    if budget is None or not isinstance(evaluator, BuiltinEvaluator):
        return
    unpriced = evaluator.unpriced()
    if unpriced:
        target, model = next(iter(unpriced.items()))
        raise InvalidInput(
            f"autoresearch.yaml: field 'eval.prices': no price is known for {model!r} (target {target!r}), so {budget} "
            f"cannot bound what the eval spends; add {model}: {{input_per_mtok: ..., output_per_mtok: ...}}"
        )


def crashed(paths: ExperimentPaths) -> bool:
    """Nobody holds the lock, and the last daemon said it was running (it died mid-run) or a git
    write of its never finished (git itself was killed)."""
    if holder(paths.lock) is not None:
        return False
    previous = state_file.load(paths.state)
    return paths.git_journal.exists() or (previous is not None and previous.status == "running")


def open_session(config: Config, cwd: Path, restart: bool = False) -> Session:
    ws, paths, evaluator, mutator = check(config, cwd)
    was_crashed = crashed(paths)
    exclude(ws, config.results_dir)
    lock = Lock(paths.lock)
    lock.acquire(config.experiment_name)
    try:
        logs.write_to(paths.log)  # the experiment is ours from here: what the resume repairs goes in its log
        session = _new_session(config, ws, paths, evaluator, mutator, lock)
        if was_crashed:
            from optimizer.reconcile import reconcile

            reconcile(session)
        if restart:
            _archive(paths)
            lock.release()
            lock.acquire(config.experiment_name)
        session = _new_session(config, ws, paths, evaluator, mutator, lock)
        require_clean_artifact(ws)
        _set_limits(session)
        session.cache = open_cache(session)
        session.holdout = holdout.load(paths.holdout, paths.results_dir, config.experiment_name)
        if config.eval.holdout and session.holdout is None and session.history.records:
            raise InvalidInput("field 'eval.holdout': this experiment began without a holdout; --restart to draw one")
        session.head = (head_ref(ws), ws.head())
        if session.history.records:
            session.baseline_rows = _resume_baseline(session)
            if session.holdout:
                session.baseline_holdout = session.holdout.rows_of(session.history.best.run_dir)
        return session
    except BaseException:
        lock.release()
        raise


def _new_session(config, ws, paths, evaluator, mutator, lock) -> Session:
    history = History(iterations.read(paths.iterations)[0])
    return Session(config, ws, paths, evaluator, mutator, _state(config, ws, paths, history), history, lock)


def _state(config: Config, ws: Workspace, paths: ExperimentPaths, history: History) -> State:
    """A fresh state.json view, rebuilt from the history so that a lost state file loses nothing."""
    previous = state_file.load(paths.state) if history.records else None
    original = history.original
    state = State(
        experiment=config.experiment_name,
        artifact=config.artifact,
        initial_sha=getattr(original, "commit", None) or ws.head(),
        run_start_cycle=_run_start(previous, history),
    )
    state_file.summarize(state, history)
    if previous:
        state.started_at = previous.started_at
    if config.worktree:
        state.branch = worktree.branch(config.experiment_name)
    return state


def _run_start(previous: State | None, history: History) -> int:
    """Where this run's cycles begin: after the last run's start when that run was interrupted (it
    goes on), else after the last cycle (a new run, with fresh counts for the stop rules)."""
    if previous and continues_run(previous.status, previous.stop_reason):
        return min(previous.run_start_cycle, history.last_cycle)
    return history.last_cycle


def _set_limits(session: Session) -> None:
    stop = session.config.stop
    at = deadline(stop.until, stop.max_hours, datetime.now().astimezone())
    session.deadline_s = at.timestamp() if at else None
    session.state.deadline = at.astimezone(timezone.utc).isoformat(timespec="seconds") if at else None
    session.state.budget_usd = stop.budget_usd
    session.state.cost_usd = round(session.history.spent_usd, 6)


def _resume_baseline(session: Session) -> list[dict]:
    """The last KEEP's results, after checking that HEAD still holds that KEEP's artifact."""
    best = session.history.best
    ws = session.ws
    commit = getattr(best, "commit", None) if best else None
    if best is None or not commit:
        raise IntegrityError(f"{session.paths.iterations}: no KEEP with a commit to resume from; use --restart")
    try:
        same = artifact_id(ws, commit) == artifact_id(ws)
    except IntegrityError:
        same = False
    if not same:
        raise IntegrityError(
            f"the artifact at HEAD is not the one of the last KEEP (cycle {best.cycle}, {commit[:10]}); "
            "it was changed outside autoresearch: use --restart to start a new experiment from HEAD"
        )
    try:
        return load_rows(session.paths.run_dir(best.run_dir))
    except BadResults as exc:
        raise IntegrityError(f"the baseline results of cycle {best.cycle} are gone or damaged ({exc}); use --restart") from None


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
