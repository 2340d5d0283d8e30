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
from typing import TYPE_CHECKING

from optimizer.cycle import COMMIT_PREFIX
from optimizer.decide import compare_for_goal
from optimizer.gitcmd import clear_stale_locks
from optimizer.logs import get
from optimizer.workspace import artifact_id, artifact_modified, candidate_patch, restore_artifact
from runs.errors import BadResults
from plumbing.process import PGID_SUFFIX
from runs.results import assertion_rates, load_rows, mean_score
from trajectory import iterations
from trajectory.iterations import Iteration

if TYPE_CHECKING:
    from optimizer.session import Session


def reconcile(session: "Session") -> list[str]:
    """Repair what a crashed daemon left; returns what was done, one line each."""
    actions = [
        *clear_stale_locks(session.ws.root, session.paths.git_journal),
        *_end_orphans(session),
        *_log_unlogged_keep(session),
        *_save_stray_candidate(session),
    ]
    for action in actions:
        get().warning("recovered after a crash", action=action)
    return actions


def _end_orphans(session: "Session") -> list[str]:
    done = []
    for pgid_file in session.paths.root.rglob(f"*{PGID_SUFFIX}"):  # samples nest one level deeper
        pgid = int(pgid_file.read_text() or 0)
        if pgid and _runs_in(pgid, session.ws.root):
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


def _log_unlogged_keep(session: "Session") -> list[str]:
    """A KEEP is committed before its line is written; a crash in between leaves the line to write."""
    ws, history = session.ws, session.history
    best = history.best
    if best is None:
        return []
    head = ws.repo.head.commit
    cycle = history.last_cycle + 1
    if not head.message.startswith(f"{COMMIT_PREFIX}{cycle}:") or not head.parents:
        return []
    if artifact_id(ws, head.parents[0].hexsha) != artifact_id(ws, best.commit):
        return []
    run_dirs = sorted(session.paths.root.glob(f"*-c{cycle:04d}*"))
    try:
        rows = load_rows(run_dirs[-1])
        baseline = load_rows(session.paths.run_dir(best.run_dir))
    except (IndexError, BadResults):
        return []  # the resume check reports the inconsistency with its own message
    record = _keep_record(session, cycle, run_dirs[-1].name, rows, baseline, head)
    iterations.append(session.paths.iterations, record)
    session.history = type(history)([*history.records, record])
    return [f"logged cycle {cycle}, committed as {head.hexsha[:10]} just before the crash"]


def _keep_record(session, cycle, run_dir, rows, baseline, head) -> Iteration:
    s = compare_for_goal(session.config, baseline, rows).summary
    return Iteration(
        cycle=cycle,
        score=mean_score(rows),
        decision="keep",
        cost_usd=sum(float(r.get("cost_usd") or 0) for r in rows),
        assertions=assertion_rates(rows),
        mutation=head.message.split(":", 1)[1].strip(),
        run_dir=run_dir,
        commit=head.hexsha,
        wins=s.wins,
        losses=s.losses,
        ties=s.ties,
        mean_delta=s.mean_delta,
        reason="recovered: committed just before a crash",
        **_samples(session.paths.run_dir(run_dir)),
    )


def _samples(run_dir: Path) -> dict:
    """A significant KEEP's candidate runs, so the next comparisons skip them as HEAD samples (the winner's curse)."""
    drawn = len(list(run_dir.glob("sample-*")))
    return {"samples": drawn} if drawn else {}


def _save_stray_candidate(session: "Session") -> list[str]:
    if not artifact_modified(session.ws):
        return []
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S")
    patch = session.paths.meta / f"recovered-{stamp}.patch"
    patch.write_text(candidate_patch(session.ws) + "\n", encoding="utf-8")
    restore_artifact(session.ws)
    return [f"saved the candidate left in the tree as {patch.name} and restored the artifact"]
