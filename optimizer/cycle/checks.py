"""`gates.checks`: commands (the unit tests, a linter) that can block a KEEP the rule and the gates allowed.

A check runs on the candidate as it would be committed: in a throwaway checkout of HEAD holding the candidate's
artifact, so that whatever it writes (a cache, a formatter's edits, a deleted file) lands nowhere that counts,
in a kernel sandbox where bubblewrap works (the results directory hidden, the checkout read-only). The checks
run in the order given and the first that fails ends them: it costs no further check, and drops the candidate
with the check named. Each one's output is kept in the cycle's run directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.config import CheckConfig
from autoresearch.optimizer.cycle.verdict import Assessment
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import process, sandbox
from autoresearch.policies.gates import Blocked


@dataclass(frozen=True)
class Failed:
    """The check that dropped a candidate, and why, on one line."""

    check: str
    why: str

    @property
    def gate(self) -> str:
        return f"check: {self.check}"


def judged(session: Session, assessed: Assessment, candidate: Workspace, run_dir: Path, batch: str) -> Assessment:
    """The assessment of a candidate the rule and the gates would keep, after the checks: not kept, the failed
    check its gate, if one fails."""
    if not assessed.keep or not session.config.gates.checks:
        return assessed
    failed = run(session, candidate, run_dir, batch)
    return assessed if failed is None else assessed.unkept(gate=Blocked(failed.gate, failed.why))


def run(session: Session, candidate: Workspace, run_dir: Path, batch: str) -> Failed | None:
    """Run `gates.checks` on the candidate in `candidate` (its artifact), in order; the first failure, or None."""
    checks = session.config.gates.checks
    if not checks:
        return None
    name = f"{batch}-checks"
    try:
        work = worktrees.make(session.ws, session.paths.meta, name, 1)[0]
        worktrees.carry_artifact(candidate, work)
        for index, check in enumerate(checks, start=1):
            failed = _one(session, check, work, run_dir / f"check-{index}-{_slug(check.label)}")
            if failed is not None:
                return failed
        return None
    finally:
        worktrees.clear(session.ws, session.paths.meta, name)


def _one(session: Session, check: CheckConfig, work: Workspace, log_prefix: Path) -> Failed | None:
    get().info("checking", check=check.label)
    box = _sandbox(session, check)
    command: str | list[str] = check.command
    if box is not None:
        opened = box.opening(work=work.root)
        command = opened.argv(["/bin/sh", "-c", check.command], opened.seen(work.root))
    env = {"AUTORESEARCH_REPO": str(session.ws.root)}  # the checkout (read-only here): its .venv, its tools
    done = process.run(command, cwd=work.root, log_prefix=log_prefix, timeout_s=float(check.timeout_s), env=env)
    if done.timed_out:
        return Failed(check.label, f"timed out after {check.timeout_s:g}s")
    if done.returncode != 0:
        return Failed(check.label, f"exited {done.returncode}: {process.tail(done.stdout + done.stderr, 200)}")
    get().info("check passed", check=check.label, duration_s=round(done.duration_s, 2))
    return None


def _sandbox(session: Session, check: CheckConfig) -> sandbox.Sandbox | None:
    """The check's sandbox (`auto` or `on`; `on` without one was refused at start), or None, said once."""
    if check.sandbox == "off":
        return None
    if why := sandbox.unavailable():
        session.warn_once(f"no sandbox for gates.checks: {why}; they run unsandboxed, in a throwaway checkout")
        return None
    git_dir = Path(session.ws.git("rev-parse", "--path-format=absolute", "--git-common-dir"))
    return sandbox.Sandbox(
        hidden=(session.paths.results_dir,),
        readable=(session.ws.root, git_dir),
        program=sandbox.program() or sandbox.PROGRAM,
    )


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-")[:40] or "check"
