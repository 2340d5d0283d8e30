"""An experiment's versions: its KEEPs, where its commits live, and rolling back to one of them.

Shared by the `log`, `rollback`, `diff` and `promote` commands and by the control API, so that a
rollback asked over HTTP is the very same operation as one typed in a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.experiment import busy
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.experiment.putback import put_back_history
from autoresearch.optimizer.experiment.transaction import Entry, Outcome, told, transaction
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.gitrepo.heads import head_ref
from autoresearch.optimizer.gitrepo.workspace import (
    Workspace,
    artifact_id,
    commit_artifact,
    open_workspace,
    require_clean_artifact,
)
from autoresearch.optimizer.guard.ledger import append_beside
from autoresearch.plumbing import faults
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import IntegrityError, InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration

ROLLBACK_PREFIX = "autoresearch rollback to cycle "


def records(paths: ExperimentPaths, name: str) -> list[Iteration]:
    """The experiment's cycles, whole; an experiment without any is bad input for every version command."""
    if not paths.iterations.exists():
        raise InvalidInput(f"experiment '{name}' has no history in {paths.root} (check the name, or --config)")
    return iterations.read(paths.iterations)[0]


def history(paths: ExperimentPaths, name: str) -> History:
    """What the experiment's cycles add up to (its best, its last cycle), as `records` refuses them."""
    return History(records(paths, name))


def cycle_of(lines: list[Iteration], cycle: int, name: str) -> Iteration:
    """The record of `cycle`, or one line naming the cycles there are."""
    for record in lines:
        if record.cycle == cycle:
            return record
    last = lines[-1].cycle if lines else 0
    raise InvalidInput(f"cycle {cycle}: experiment '{name}' has no such cycle (it has cycles 1-{last})")


def a_decision(decision: str) -> str:
    """`a keep`, `a drop`, `an error`: the decision with its article, for the lines that name one."""
    return f"{'an' if decision[:1] in 'aeiou' else 'a'} {decision}"


def keep_of(lines: list[Iteration], cycle: int, name: str) -> Iteration:
    """The KEEP of `cycle` with its commit; a drop or an error names the KEEPs one may pick instead."""
    record = cycle_of(lines, cycle, name)
    if record.decision != "keep" or not record.commit:
        keeps = ", ".join(str(r.cycle) for r in lines if r.decision == "keep" and r.commit)
        raise InvalidInput(
            f"cycle {cycle} of '{name}' was {a_decision(record.decision)}, not a KEEP (its KEEPs: cycles {keeps})"
        )
    return record


def workspace(cfg: Config, main: Workspace, paths: ExperimentPaths) -> Workspace:
    """Where the experiment commits: its own worktree when it ran in one (state.json names its branch),
    else the user's checkout."""
    st = state_file.load(paths.state)
    in_worktree = st.branch is not None if st else cfg.worktree
    if not in_worktree:
        return main
    path = main.root / cfg.results_dir / "worktrees" / cfg.experiment_name
    if not (path / ".git").exists():
        raise InvalidInput(f"experiment '{cfg.experiment_name}' ran in a worktree that is gone: {path}")
    return open_workspace(path, cfg.artifact)


@dataclass(frozen=True)
class Rollback:
    record: Iteration | None  # the new history line; None when the artifact already was that version
    target: Iteration


def rollback(cfg: Config, main: Workspace, paths: ExperimentPaths, cycle: int) -> Rollback:
    """A new commit putting the artifact back as it was after `cycle`'s KEEP, logged as a KEEP line of
    its own whose baseline is that cycle's results: history is never rewritten, and a later `run`
    resumes from the restored version as from any KEEP. Holds the experiment's lock throughout, so no
    run can start (or be running) meanwhile; refused while another experiment runs in the checkout it
    would commit in. A transaction (autoresearch.optimizer.experiment.transaction)."""
    name, outcome = cfg.experiment_name, Outcome()
    with told(outcome):
        history(paths, name)  # an unknown experiment is refused before the lock would create its folder
        lock = Lock(paths.lock, Vault.of(main, paths).lock)
        lock.acquire(name, task="rollback")
        try:
            return _rollback(cfg, main, paths, cycle, outcome)
        finally:
            lock.release()


def _rollback(cfg: Config, main: Workspace, paths: ExperimentPaths, cycle: int, outcome: Outcome) -> Rollback:
    name = cfg.experiment_name
    put_back_history(paths, Vault.of(main, paths))  # before the history is read: its line numbered after the daemon's
    lines = records(paths, name)
    past, target = History(lines), keep_of(lines, cycle, name)
    ws = replace(workspace(cfg, main, paths), journal=paths.git_journal)
    if ws.root == main.root:
        _require_alone(paths, name, "a rollback")
    require_clean_artifact(ws)
    changes = artifact_id(ws, target.commit or "") != artifact_id(ws)
    if not changes and _is_best(ws, past):
        return Rollback(None, target)
    # unchanged but not the best: committed already (a rollback killed before its line, or by hand),
    # the line is what is missing
    line = _rollback_record(past.last_cycle + 1, target, None)
    entry = Entry(
        command="rollback",
        experiment=name,
        root=str(ws.root),
        artifact=ws.artifact,
        head=ws.head(),
        cycle=cycle,
        target=target.commit,
        line=line,
        commit=None if changes else ws.head(),
    )
    with transaction(paths, entry):
        sha = entry.commit
        if sha is None:
            ws.write("restore", f"--source={target.commit}", "--staged", "--worktree", "--", ws.artifact)
            faults.point("rollback-restored")
            sha = commit_artifact(ws, f"{ROLLBACK_PREFIX}{cycle}") or ws.head()
            faults.point("rollback-committed")
        record = log_rollback(ws, paths, line, sha)
        outcome.said = f"the rollback to cycle {cycle} was finished: commit {sha[:10]}, logged as cycle {record.cycle}"
        faults.point("rollback-logged")
    return Rollback(record, target)


def log_rollback(ws: Workspace, paths: ExperimentPaths, planned: Iteration, sha: str) -> Iteration:
    """The rollback's line `planned` for its commit `sha`, appended unless it is there already, and
    state.json brought up to date."""
    lines = iterations.read(paths.iterations)[0]
    past = History(lines)
    record = next((r for r in lines if r.commit == sha and r.cycle >= planned.cycle), None)
    if record is None:
        record = planned.model_copy(update={"cycle": past.last_cycle + 1, "commit": sha, "timestamp": utc_now()})
        append_beside(paths.iterations, Vault.of(ws, paths).iterations, record)
        past.add(record)
    _refresh_state(paths, past)
    return record


def _require_alone(paths: ExperimentPaths, name: str, what: str) -> None:
    """Refuse (exit 30) to commit in a checkout where another experiment's daemon works: its branch
    would move under it (it stops with exit 50 and advises a reset that would undo this commit)."""
    if found := busy.other_running(paths.results_dir, name):
        other, who = found
        raise InvalidInput(
            f"experiment '{other}' is running in this checkout ({who}): {what} would commit on the branch "
            f"under it; wait for it, or stop it (`autoresearch stop {other}`)"
        )


def _is_best(ws: Workspace, past: History) -> bool:
    """Whether HEAD's artifact is the last KEEP's, the one a resumed run checks for."""
    best = past.best
    return best is not None and bool(best.commit) and artifact_id(ws, best.commit or "") == artifact_id(ws)


def _rollback_record(cycle: int, target: Iteration, sha: str | None) -> Iteration:
    fields = {"score", "assertions", "run_dir", "tests", "holdout_score", "holdout_tests", "samples", "eval_key"}
    return Iteration(
        cycle=cycle,
        decision="keep",
        mutation=f"rollback to cycle {target.cycle}",
        reason=f"rollback to cycle {target.cycle}",
        commit=sha,
        **target.model_dump(include=fields, exclude_none=True),
    )


def _refresh_state(paths: ExperimentPaths, past: History) -> None:
    """state.json is `status`'s view: show the restored version as the best at once."""
    st = state_file.load(paths.state)
    if st is not None:
        state_file.summarize(st, past)
        state_file.Writer(paths.state).now(st)


def promote(main: Workspace, paths: ExperimentPaths, name: str) -> str:
    """Merge the experiment's branch into the checked-out branch; what was done, in words. Under the
    experiment's lock, so its branch cannot move while it is merged; refused while another experiment
    runs in this checkout. A transaction (autoresearch.optimizer.experiment.transaction)."""
    outcome = Outcome()
    with told(outcome):
        history(paths, name)  # an unknown experiment is refused before the lock would create its folder
        lock = Lock(paths.lock, Vault.of(main, paths).lock)
        lock.acquire(name, task="promote")
        try:
            return _promote(replace(main, journal=paths.git_journal), paths, name, outcome)
        finally:
            lock.release()


def _promote(main: Workspace, paths: ExperimentPaths, name: str, outcome: Outcome) -> str:
    branch = f"autoresearch/{name}"
    if not main.git("branch", "--list", branch).strip():
        raise InvalidInput(
            f"experiment '{name}' has no branch {branch}: it did not run in a worktree, its commits are on your branch"
        )
    here = head_ref(main)
    if here is None:
        raise InvalidInput("HEAD is detached: check out the branch to promote the experiment onto")
    dirty = main.git("status", "--porcelain", "--untracked-files=no").strip()
    if dirty:
        raise InvalidInput(
            f"{main.root}: uncommitted changes ({dirty.splitlines()[0].strip()}); commit or stash them first"
        )
    _require_alone(paths, name, "a promote")
    onto = here.removeprefix("refs/heads/")
    if is_ancestor(main, branch, "HEAD"):
        return f"nothing to promote: {onto} already has every commit of {branch}"
    entry = Entry(
        command="promote",
        experiment=name,
        root=str(main.root),
        artifact=main.artifact,
        head=main.head(),
        branch=branch,
        tip=main.git("rev-parse", "--verify", branch),
    )
    with transaction(paths, entry):
        if is_ancestor(main, "HEAD", branch):
            main.write("merge", "--ff-only", "--quiet", branch)
            faults.point("promote-merged")
            done = f"promoted {branch} onto {onto}: fast-forward to {main.head()[:10]}"
        else:
            _merge(main, branch, onto, outcome)
            done = f"promoted {branch} onto {onto}: merge commit {main.head()[:10]}"
        outcome.said = f"the promote was finished: {done}"
    return done


def _merge(main: Workspace, branch: str, onto: str, outcome: Outcome) -> None:
    """A merge commit of `branch`; a conflicting merge is aborted and refused (exit 30)."""
    try:
        main.write("merge", "--no-ff", "--no-edit", "--quiet", "-m", f"Merge {branch} (autoresearch promote)", branch)
    except IntegrityError as exc:
        faults.point("promote-merged")
        conflicts = main.git("diff", "--name-only", "--diff-filter=U").split()
        main.write("merge", "--abort")
        what = f"conflicts in {', '.join(conflicts)}" if conflicts else str(exc)
        outcome.said = f"the promote was undone: merging {branch} into {onto} met {what}, and was aborted"
        raise InvalidInput(f"merging {branch} into {onto}: {what}; nothing was changed (merge it by hand)") from None
    faults.point("promote-merged")


def is_ancestor(ws: Workspace, older: str, newer: str) -> bool:
    try:
        ws.git("merge-base", "--is-ancestor", older, newer)
    except IntegrityError:
        return False
    return True
