"""After a crash: make the experiment consistent again before the loop resumes.

A daemon killed at any moment (kill -9, power cut) can leave: a git of its
killed mid-write with its locks, its eval or mutator still running, a KEEP
committed but not yet logged, or a candidate in the working tree. Each is
repaired here, loudly, and nothing is thrown away:
an unlogged KEEP is logged from its run directory, a stray candidate is saved
as a patch before the artifact is restored.
"""

from __future__ import annotations

import os
import signal
from datetime import datetime, timezone
from pathlib import Path

import pygit2

from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle import eval_writes, pending
from autoresearch.optimizer.cycle.conclude import COMMIT_PREFIX
from autoresearch.optimizer.cycle.decide import compare_for_goal
from autoresearch.optimizer.cycle.record import sealed
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.history import History
from autoresearch.optimizer.experiment.vault import Vault
from autoresearch.optimizer.gitrepo import candidates, throwaway
from autoresearch.optimizer.gitrepo.gitcmd import clear_stale_locks
from autoresearch.optimizer.gitrepo.workspace import (
    Workspace,
    artifact_id,
    artifact_modified,
    candidate_patch,
    restore_artifact,
)
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.process import PGID_SUFFIX
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import assertion_rates, load_rows, mean_score
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration

RECOVERED = "recovered: committed just before a crash"


def reconcile(config: Config, ws: Workspace, paths: ExperimentPaths, history: History) -> list[str]:
    """Repair what a crashed daemon left; returns what was done, one line each."""
    actions = [
        *clear_stale_locks(ws.root, paths.git_journal),
        *_end_orphans(ws, paths),
        *_log_unlogged_keep(config, ws, paths, history),
        *eval_writes.finish(ws, Vault.of(ws, paths).eval_notes),  # before the candidate's patch: not its
        *_save_stray_candidate(ws, paths),
        *[f"removed the worktree of parallel candidate {name}" for name in _cleared(ws, paths)],
    ]
    pending.clear(paths)  # a stale one: its line was written, or its commit never made
    for action in actions:
        get().warning("recovered after a crash", action=action)
    return actions


def _cleared(ws: Workspace, paths: ExperimentPaths) -> list[str]:
    """The candidates' worktrees removed; the sandboxed mutator's throwaway checkout is removed unsaid: it is
    kept between cycles (autoresearch.optimizer.gitrepo.throwaway), so a kill at any time leaves it."""
    return [name for name in candidates.clear(ws, paths.meta) if not name.startswith(throwaway.NAME + "/")]


def _end_orphans(ws: Workspace, paths: ExperimentPaths) -> list[str]:
    done = []
    for pgid_file in paths.root.rglob(f"*{PGID_SUFFIX}"):  # samples nest one level deeper
        pgid = int(pgid_file.read_text() or 0)
        if pgid and _runs_in(pgid, ws.root):
            try:
                os.killpg(pgid, signal.SIGKILL)
                done.append(f"ended {pgid_file.name.removesuffix(PGID_SUFFIX)} process group {pgid} left running")
            except ProcessLookupError:
                pass
        pgid_file.unlink(missing_ok=True)
    return done


def _runs_in(pid: int, root: Path) -> bool:
    """Only a process working in this repository is ours to end (pids are reused)."""
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")).resolve() == root
    except OSError:
        return False


def _log_unlogged_keep(config: Config, ws: Workspace, paths: ExperimentPaths, history: History) -> list[str]:
    """A KEEP is committed before its line is written; a crash in between leaves the line to write."""
    best = history.best
    if best is None or best.commit is None:
        return []  # a KEEP without its commit: the resume check refuses it with its own message
    head = ws.lib.revparse_single("HEAD").peel(pygit2.Commit)
    cycle = history.last_cycle + 1
    sha, message = str(head.id), _text(head)
    if not message.startswith(f"{COMMIT_PREFIX}{cycle}:") or not head.parent_ids:
        return []
    parent = str(head.parent_ids[0])
    if artifact_id(ws, parent) != artifact_id(ws, best.commit):
        return []
    prepared = pending.take(paths, cycle, parent, message)
    if prepared is not None:  # the line as the cycle wrote it down before the commit
        reason = "; ".join(filter(None, [prepared.reason, RECOVERED]))
        iterations.append(
            paths.iterations,
            sealed(paths, prepared.model_copy(update={"commit": sha, "reason": reason}), best.holdout_sha256),
        )
        return [f"logged cycle {cycle}, committed as {sha[:10]} just before the crash"]
    run_dirs = sorted(paths.root.glob(f"*-c{cycle:04d}*"))
    try:
        rows = load_rows(run_dirs[-1])
        baseline = load_rows(paths.run_dir(best.run_dir))
    except (IndexError, BadResults):
        return []  # the resume check reports the inconsistency with its own message
    record = _keep_record(config, cycle, run_dirs[-1], rows, baseline, head, best.eval_key)
    iterations.append(paths.iterations, sealed(paths, record, best.holdout_sha256))
    return [f"logged cycle {cycle}, committed as {sha[:10]} just before the crash"]


def _keep_record(
    config: Config,
    cycle: int,
    run_dir: Path,
    rows: list[JSONObject],
    baseline: list[JSONObject],
    head: pygit2.Commit,
    eval_key: str | None,  # the last KEEP's: the crashed cycle was compared with its results, so measured alike
) -> Iteration:
    s = compare_for_goal(config, baseline, rows).summary
    return Iteration(
        cycle=cycle,
        score=mean_score(rows),
        decision="keep",
        cost_usd=sum(float(r.get("cost_usd") or 0) for r in rows),
        assertions=assertion_rates(rows),
        mutation=_text(head).split(":", 1)[1].strip(),
        run_dir=run_dir.name,
        commit=str(head.id),
        wins=s.wins,
        losses=s.losses,
        ties=s.ties,
        mean_delta=s.mean_delta,
        reason=RECOVERED,
        eval_key=eval_key,
        **_samples(run_dir),
    )


def _samples(run_dir: Path) -> JSONObject:
    """A significant KEEP's candidate runs, so the next comparisons skip them as HEAD samples (the winner's curse)."""
    drawn = len(list(run_dir.glob("sample-*")))
    return {"samples": drawn} if drawn else {}


def _save_stray_candidate(ws: Workspace, paths: ExperimentPaths) -> list[str]:
    if not artifact_modified(ws):
        return []
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S")
    patch = paths.meta / f"recovered-{stamp}.patch"
    patch.write_text(candidate_patch(ws) + "\n", encoding="utf-8")
    restore_artifact(ws)
    return [f"saved the candidate left in the tree as {patch.name} and restored the artifact"]


def _text(commit: pygit2.Commit) -> str:
    """A commit's message as text (ours are UTF-8; one that is not still reads, with replacement characters)."""
    return commit.raw_message.decode("utf-8", "replace")
