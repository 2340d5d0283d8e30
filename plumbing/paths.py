"""Where an experiment's and a schedule's files live under `<repo>/<results_dir>`, and the names of run directories."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path

META = "_autoresearch"
RUNS = "runs"  # <results_dir>/runs/<experiment>
SCHEDULES = "schedules"  # <results_dir>/schedules/<experiment>
SCHEDULE_STATE = "schedule.json"


@dataclass(frozen=True)
class ExperimentPaths:
    """Each file's path is made once, at its first use: the root never changes, and the loop asked for the
    same dozen paths about 25 times a cycle, each a `Path` joined anew (two for a file under `meta`)."""

    root: Path  # <results_dir>/runs/<experiment>

    @classmethod
    def of(cls, repo_root: Path, results_dir: str, experiment: str) -> "ExperimentPaths":
        return cls.at(repo_root / results_dir, experiment)

    @classmethod
    def at(cls, results: Path, experiment: str) -> "ExperimentPaths":
        """The experiment's paths under the results directory `results` (`<repo>/<results_dir>`)."""
        return cls(results / RUNS / experiment)

    @cached_property
    def results_dir(self) -> Path:
        return self.root.parent.parent

    @cached_property
    def meta(self) -> Path:
        return self.root / META

    @cached_property
    def iterations(self) -> Path:
        return self.meta / "iterations.jsonl"

    @cached_property
    def digest(self) -> Path:
        """What was tried, in short, for the mutators (see autoresearch.optimizer.experiment.digest)."""
        return self.meta / "digest.md"

    @cached_property
    def state(self) -> Path:
        return self.meta / "state.json"

    @cached_property
    def log(self) -> Path:
        return self.meta / "daemon.log"

    @cached_property
    def chart(self) -> Path:
        return self.meta / "trajectory.html"

    @cached_property
    def git_journal(self) -> Path:
        """Holds a note while a git write of the daemon's is under way (see autoresearch.optimizer.gitrepo.gitcmd)."""
        return self.meta / "git-write.json"

    @cached_property
    def version_journal(self) -> Path:
        """Present while a `rollback` or `promote` is under way, or was cut short (see
        autoresearch.optimizer.experiment.transaction)."""
        return self.meta / "version-command.json"

    @cached_property
    def lock(self) -> Path:
        return self.meta / "lock"

    @cached_property
    def holdout(self) -> Path:
        """Which tests are held out of the mutator's sight, drawn once per experiment."""
        return self.meta / "holdout.json"

    @cached_property
    def stop_file(self) -> Path:
        """Created by `autoresearch stop` (or by hand): the loop stops at the next boundary."""
        return self.meta / "STOP"

    def new_run_dir(self, cycle: int) -> Path:
        """`2026-11-21T22-30-00-c0007`: sorts in time order and stays unique within a second."""
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S")
        name = f"{stamp}-c{cycle:04d}"
        path, attempt = self.root / name, 1
        while True:  # made without a look first: the name is nearly always free
            try:
                path.mkdir(parents=True)
                return path
            except FileExistsError:  # a redone cycle in the same second
                attempt += 1
                path = self.root / f"{name}-{attempt}"

    def run_dir(self, name: str) -> Path:
        return self.root / name


@dataclass(frozen=True)
class SchedulePaths:
    root: Path  # <results_dir>/schedules/<experiment>

    @classmethod
    def of(cls, results: Path, experiment: str) -> "SchedulePaths":
        return cls(results / SCHEDULES / experiment)

    @property
    def state(self) -> Path:
        return self.root / SCHEDULE_STATE

    @property
    def lock(self) -> Path:
        return self.root / "lock"

    @property
    def log(self) -> Path:
        return self.root / "schedule.log"

    @property
    def run_logs(self) -> Path:
        return self.root / "runs"
