"""`autoresearch stop`: end a running experiment (gracefully by default) and wait until it is gone."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import typer

from optimizer.commands.common import ConfigOption, config_dir, load


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    now: bool = typer.Option(False, "--now", help="Interrupt the eval or mutator in progress too."),
    config: Path = ConfigOption,
) -> int:
    """Stop a running experiment and wait until it has exited.

    By default the daemon finishes the phase in progress (a running eval is
    judged and recorded; a fresh candidate is saved as a patch), restores the
    artifact to HEAD, finalizes the chart and exits. --now interrupts the eval
    or mutator subprocesses (their whole process groups) with the same
    guarantees.
    """
    from optimizer import daemon
    from optimizer import state as state_file
    from optimizer.lockfile import holder
    from optimizer.experiment import ExperimentPaths
    from optimizer.workspace import open_workspace

    cfg = load(config, {"experiment": experiment})
    ws = open_workspace(config_dir(config), cfg.artifact)
    paths = ExperimentPaths.of(ws.root, cfg.results_dir, cfg.experiment_name)
    pid = holder(paths.lock)
    if pid is None:
        print(f"experiment {cfg.experiment_name} is not running")
        return 0
    if now:
        os.kill(pid, signal.SIGTERM)
        print(f"interrupting experiment {cfg.experiment_name} (pid {pid})")
    else:
        paths.stop_file.touch()
        print(f"asked experiment {cfg.experiment_name} (pid {pid}) to stop after its current phase (--now to interrupt)")

    def still_waiting() -> None:
        st = state_file.load(paths.state)
        where = f"cycle {st.cycle + 1}, {st.phase}" if st else "starting"
        print(f"  still waiting ({where})", flush=True)

    daemon.wait_gone(paths.lock, on_wait=still_waiting)
    st = state_file.load(paths.state)
    print(f"stopped: {st.status} ({st.stop_reason})" if st else "stopped")
    return 0
