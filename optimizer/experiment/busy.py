"""Which daemons work in this checkout right now: mid-cycle, the working tree holds their candidate.

Read from the experiments' locks (who runs) and state.json (`branch` is set
when a daemon works in a worktree of its own and leaves this checkout alone);
an experiment of another results directory is found by its claim on the
checkout (`CheckoutClaim`).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

from autoresearch.optimizer.experiment.lockfile import held_by
from autoresearch.optimizer.experiment.overview import experiments, read_json
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import InvalidInput, writing
from autoresearch.plumbing.namelock import NameLock
from autoresearch.plumbing.paths import ExperimentPaths


def in_this_checkout(results: Path) -> dict[str, str]:
    """{experiment: 'pid N since T'} for each daemon working in this checkout's tree."""
    found = {}
    for name in experiments(results):
        paths = ExperimentPaths.at(results, name)
        who = held_by(paths.lock)
        if who is not None and not (read_json(paths.state) or {}).get("branch"):
            found[name] = who
    return found


def other_running(results: Path, experiment: str) -> tuple[str, str] | None:
    """(experiment, 'pid N since T') of a daemon other than `experiment`'s working in this checkout's tree."""
    return next(((name, who) for name, who in in_this_checkout(results).items() if name != experiment), None)


def require_no_other(results: Path, experiment: str) -> None:
    """Refuse (exit 30) a second experiment in a checkout where one already runs: each would take the
    other's candidates for out-of-scope changes and undo them."""
    if found := other_running(results, experiment):
        name, who = found
        raise InvalidInput(
            f"experiment '{name}' is running in this checkout ({who}): two experiments in one working tree "
            f"undo each other's candidates; wait for it, stop it (`autoresearch stop {name}`), or run this one "
            "in its own worktree (--worktree)"
        )


def require_idle(results: Path, what: str) -> None:
    """Refuse (exit 30) `what` while a daemon works in this checkout: its candidate would pass for the user's work."""
    running = in_this_checkout(results)
    if running:
        name, who = next(iter(running.items()))
        raise InvalidInput(
            f"experiment '{name}' is running in this checkout ({who}): the working tree may hold its candidate, "
            f"so {what}; wait for it, follow it with `autoresearch status {name}`, or stop it (`autoresearch stop {name}`)"
        )


class CheckoutClaim:
    """Held by a run for as long as it works in a checkout's tree, whatever its results directory: an flock
    on a file under git's folder (autoresearch.optimizer.experiment.vault.checkout_lock), where neither
    another results directory nor a mutator's `git clean` or `rm` reaches."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None
        self._name = NameLock(os.path.abspath(path))  # holds even when a mutator deletes the file

    def take(self, experiment: str, results: Path) -> None:
        """Refused (exit 30) while another run works in this checkout, naming it and its results directory."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raw = os.pread(fd, 4096, 0)
            os.close(fd)
            raise InvalidInput(_refusal(raw, experiment, results)) from None
        if (pid := self._name.take()) is not None:  # its file was deleted under a run that still works here
            os.close(fd)
            raise InvalidInput(
                f"another run (pid {pid or 'unknown'}) is working in this checkout, though its lock files were "
                "deleted (by a mutator without the sandbox?); wait for it or stop it"
            )
        claim = {"pid": os.getpid(), "since": utc_now(), "experiment": experiment, "results_dir": str(results)}
        self._fd = fd
        try:
            with writing(self.path):  # a full disk: one line and exit 50, the checkout free again
                os.ftruncate(fd, 0)
                os.pwrite(fd, json.dumps(claim).encode(), 0)
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        self._name.release()
        fd, self._fd = self._fd, None  # forgotten first: a signal raised as os.close returns must not close it twice
        if fd is not None:
            os.close(fd)


def _refusal(raw: bytes, experiment: str, results: Path) -> str:
    try:
        info = json.loads(raw)
        who = f"pid {info['pid']} since {info['since']}"
        if (info["experiment"], info["results_dir"]) == (experiment, str(results)):  # this very experiment
            return f"experiment '{experiment}' is locked by {who}; stop it first or wait"
        other = f"experiment '{info['experiment']}' (results in {info['results_dir']}, {who})"
    except (ValueError, KeyError, TypeError):
        other = "another experiment"
    return (
        f"{other} is running in this checkout: two experiments in one working tree undo each other's "
        "candidates; wait for it, stop it, or run this one in its own worktree (--worktree)"
    )
