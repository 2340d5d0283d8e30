"""`Experiment`: the loop as a library, for notebooks and CI scripts.

The same files, checks, lock and git commits as `autoresearch run`; only the
front differs: no terminal, no detaching, errors raised rather than mapped to
exit codes (each `AutoresearchError` still carries its `exit_code`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.optimizer import config as config_file
from autoresearch.optimizer import daemonlog, signals
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.cycle import loop
from autoresearch.optimizer.cycle.loop import Outcome
from autoresearch.optimizer.experiment import overview
from autoresearch.optimizer.experiment.settle import settle
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.startup import interrupted
from autoresearch.optimizer.startup.opening import ConfigSource, open_session
from autoresearch.plumbing.errors import Interrupted, InvalidInput
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.repo import git_root
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration

__all__ = ["Experiment", "Iteration", "Outcome"]


class Experiment:
    """One experiment of one config file: run cycles, read its iterations and status.

    `overrides` are the config's dotted keys, as the CLI flags set them
    (`{"stop.max_convergence": 3, "policy.rule": "score"}`); the config is read
    and checked here, so a mistake raises `InvalidInput` before anything runs.
    """

    def __init__(self, config: str | Path = "autoresearch.yaml", overrides: JSONObject | None = None):
        self.config_path = Path(config).resolve()
        self.overrides = dict(overrides or {})
        self.config: Config = _load(self.config_path, self.overrides)

    @property
    def repo(self) -> Path:
        """The repository the config names: the one holding the config file, else the current directory's."""
        here = self.config_path.parent
        return here if git_root(here) is not None else Path.cwd()

    @property
    def paths(self) -> ExperimentPaths:
        """Where the experiment's records are (iterations.jsonl, state.json, the chart, daemon.log)."""
        ws = open_workspace(self.repo, self.config.artifact)
        return ExperimentPaths.of(ws.root, self.config.results_dir, self.config.experiment_name)

    def run(self, cycles: int | None = None, restart: bool = False) -> Outcome:
        """Run up to `cycles` new cycles (None: the config's `stop.max_cycles`) in this process; blocks until a
        stop. Warnings go to stderr and everything to the experiment's daemon.log. Ctrl-C (in the main thread)
        restores the artifact and raises `Interrupted`, as `run` does."""
        overrides = {**self.overrides, "stop.max_cycles": cycles}
        cfg, source = ConfigSource.reading(self.config_path, lambda: _load(self.config_path, overrides))
        daemonlog.for_library(quiet=True)
        with _signals_held(), daemonlog.closing_run_log():
            for line in settle(self.paths.results_dir):  # a `rollback` or `promote` cut short, as `run` does
                daemonlog.get().warning("settled an interrupted version command", action=line)
            session = open_session(
                cfg, self.repo, restart=restart, source=source
            )  # its lines go to its daemon.log alone
            try:
                return loop.run(session)
            except Interrupted:  # (Ctrl-C stops every run of this process: what they run ends with them)
                signals.end_started()
                raise
            finally:
                session.close()

    def iterations(self) -> list[Iteration]:
        """Every cycle recorded so far, oldest first (a torn last line is left out)."""
        return iterations.read(self.paths.iterations)[0]

    def status(self) -> JSONObject:
        """What `autoresearch status NAME --json` prints: running or not, state.json, the last decisions."""
        return overview.experiment(self.paths.results_dir, self.config.experiment_name).as_dict()


def _load(path: Path, overrides: JSONObject) -> Config:
    """The config, or InvalidInput saying why not: with, as `autoresearch run` says it, the mutation whose undo
    is pending in this checkout where there is one (its mutator may have deleted or written over the config,
    and only its experiment's start, which needs the config, undoes that)."""
    try:
        return config_file.load(path, overrides)
    except InvalidInput as exc:
        raise interrupted.unreadable(exc, path.parent) from None


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM as the loop expects them (held back during a commit) for the run, then the caller's
    own handlers again: a notebook keeps its interrupt button. Only the main thread may set handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    signals.install()
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
