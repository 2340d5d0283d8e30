"""`autoresearch stop`: end a running experiment and its scheduler, and wait until they are gone."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.options import ConfigOption

if TYPE_CHECKING:
    from autoresearch.plumbing.paths import ExperimentPaths


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    now: bool = typer.Option(False, "--now", help="Interrupt the eval or mutator in progress too."),
    config: Path = ConfigOption,
) -> int:
    """Stop a running experiment (and its `schedule`, if one runs it) and wait until it has exited.

    By default the daemon finishes the phase in progress (a running eval is
    judged and recorded; a fresh candidate is saved as a patch), restores the
    artifact to HEAD, finalizes the chart and exits; a scheduler is stopped
    after its run. --now interrupts the eval or mutator subprocesses (their
    whole process groups) with the same guarantees.
    """
    from autoresearch.optimizer.experiment.lockfile import holder, task
    from autoresearch.plumbing.paths import SchedulePaths

    cfg, _, paths = find_experiment(experiment, config)
    schedule_lock = SchedulePaths.of(paths.results_dir, cfg.experiment_name).lock
    name = cfg.experiment_name
    run_pid, scheduler_pid = holder(paths.lock), holder(schedule_lock)
    if run_pid is None and scheduler_pid is None:
        if not (paths.root.exists() or schedule_lock.parent.exists()):
            from autoresearch.plumbing.errors import InvalidInput

            raise InvalidInput(
                f"experiment {name!r} is unknown: nothing in {paths.results_dir} (check the name, or --config)"
            )
        print(f"experiment {name} is not running")
        return 0
    if run_pid is not None and (doing := task(paths.lock)) not in (None, "run"):
        from autoresearch.plumbing.errors import InvalidInput

        raise InvalidInput(
            f"experiment {name!r} is not running: `autoresearch {doing}` (pid {run_pid}) holds it for a moment; "
            "try again when it is done"
        )
    if run_pid is not None:
        _stop_run(paths, run_pid, now, name)
    if scheduler_pid is not None:
        os.kill(scheduler_pid, signal.SIGTERM)
        print(f"stopping the scheduler of {name} (pid {scheduler_pid})")
        _wait(schedule_lock, paths)
    return 0


def _stop_run(paths: ExperimentPaths, pid: int, now: bool, name: str) -> None:
    from autoresearch.optimizer.experiment import state as state_file

    if now:
        os.kill(pid, signal.SIGTERM)
        print(f"interrupting experiment {name} (pid {pid})")
    else:
        paths.stop_file.touch()
        print(f"asked experiment {name} (pid {pid}) to stop after its current phase (--now to interrupt)")
    _wait(paths.lock, paths)
    st = state_file.load(paths.state)
    print(f"stopped: {st.status} ({st.stop_reason})" if st else "stopped")


def _wait(lock: Path, paths: ExperimentPaths) -> None:
    from autoresearch.optimizer.daemon import spawn
    from autoresearch.optimizer.experiment import state as state_file

    def still_waiting() -> None:
        st = state_file.load(paths.state)
        where = f"cycle {st.cycle + 1}, {st.phase}" if st else "starting"
        print(f"  still waiting ({where})", flush=True)

    spawn.wait_gone(lock, on_wait=still_waiting)
