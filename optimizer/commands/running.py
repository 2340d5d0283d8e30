"""What `run` and `start` do once their options are read: the loop here, or a daemon started for it.

Kept apart from `run`'s options (typer, with the click it carries: 40 ms of CPU) so that a plain `run`, the
command cron and scripts type, is answered without the parser (`commands.quick`), as a plain `status` is.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.optimizer.commands.common import DEFAULT_CONFIG, load, settle_versions, setup_logging
from autoresearch.plumbing.errors import NO_IMPROVEMENT, OK, SAFETY_GATE
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.repo import config_dir, find_config

if TYPE_CHECKING:
    from autoresearch.optimizer import tracking
    from autoresearch.optimizer.config import Config
    from autoresearch.optimizer.experiment.session import Session


def plain() -> int:
    """`autoresearch run` with no option: the config in the current directory, nothing overridden."""
    return run(find_config(Path(DEFAULT_CONFIG)), {}, restart=False, quiet=False, detach=False, daemon=False)


def run(config: Path, overrides: JSONObject, *, restart: bool, quiet: bool, detach: bool, daemon: bool) -> int:
    """The loop in the foreground, or, with `detach` or in a terminal, a daemon checked here and started."""
    if detach:
        return _start_detached(config, overrides, restart)
    if not daemon and sys.stdin.isatty():
        return _start_detached(config, overrides, restart, attach=True, quiet=quiet)
    return _run_here(config, overrides, restart, quiet, daemon)


def _run_here(config: Path, overrides: JSONObject, restart: bool, quiet: bool, daemon: bool) -> int:
    from autoresearch.optimizer import notify, signals, tracking
    from autoresearch.optimizer.commands.summary import print_run_summary
    from autoresearch.optimizer.cycle import loop
    from autoresearch.optimizer.startup import interrupted
    from autoresearch.optimizer.startup.opening import ConfigSource, open_session
    from autoresearch.plumbing import collector
    from autoresearch.plumbing.errors import IntegrityError, Interrupted, InvalidInput

    try:  # the config, and its bytes as read: a start finding them changed once it holds the locks reads it again
        cfg, source = ConfigSource.reading(config, lambda: load(config, overrides))
    except InvalidInput as exc:  # a mutator killed mid-mutation may have deleted or written over it
        raise interrupted.unreadable(exc, config_dir(config)) from None
    setup_logging(quiet=quiet, console=not daemon)  # (a daemon's console is its log file: no line twice)
    signals.install()
    _settle_versions(cfg, config)
    try:
        session = open_session(cfg, config_dir(config), restart=restart, source=source)
    except (IntegrityError, Interrupted):  # the experiment is there but cannot go on: say where it stands
        print_run_summary(cfg, config_dir(config))
        raise
    cfg = session.config  # read again when the repair of a crash put the file back
    setup_logging(session.paths.log, quiet=quiet, console=not daemon)
    notifier, error = notify.start(cfg.notify, cfg.experiment_name), None
    tracker = tracking.start(cfg.tracking, _tracked(session))
    collector.started()  # the loop's own garbage is collected as usual, its cycles not walking start-up's objects
    try:
        outcome = loop.run(session)
    except BaseException as exc:
        error = exc
        raise
    finally:
        session.close()
        print_run_summary(cfg, config_dir(config))  # on every exit: cron mails it with the exit code
        notify.ended(notifier, session.state, error)
        tracking.ended(tracker, error)
    if outcome.safety_blocked:
        return SAFETY_GATE
    return OK if outcome.succeeded else NO_IMPROVEMENT


def _tracked(session: "Session") -> "tracking.Run":
    """What the experiment tracker is told of this run."""
    from importlib.metadata import version

    from autoresearch.optimizer import tracking as tracker

    cfg, st = session.config, session.state
    params = {
        "artifact": cfg.artifact,
        "keep_rule": cfg.policy.rule,
        "mutator": cfg.mutator.provider,
        "candidates": str(cfg.search.candidates),
        "initial_commit": st.initial_sha,
        "first_cycle": str(st.run_start_cycle + 1),
        "autoresearch": version("autoresearch"),
    }
    return tracker.Run(
        experiment=cfg.experiment_name,
        repo=session.ws.root,
        artifact=cfg.artifact,
        iterations=session.paths.iterations,
        log=session.paths.meta / "tracking.log",
        name=f"{cfg.experiment_name} {st.started_at}",
        params=params,
        metric=cfg.eval.metric is not None,
        goal=cfg.eval.goal,
    )


def _start_detached(
    config: Path, overrides: JSONObject, restart: bool, attach: bool = False, quiet: bool = False
) -> int:
    """Validate in the foreground (so mistakes fail here, loudly), then hand over to a daemon.

    With `attach`, keep following the daemon's log in this terminal until it
    exits (its exit code) or the user presses `d` to leave it running.
    """
    from autoresearch.optimizer.daemon import attach as terminal
    from autoresearch.optimizer.daemon import spawn
    from autoresearch.optimizer.startup import checks

    cfg = load(config, overrides)
    _settle_versions(cfg, config)
    ws, paths, _, _ = checks.check(cfg, config_dir(config))
    args = ["run", "--config", str(config.resolve()), "--daemon", "--quiet", *_flags(overrides)]
    offset = paths.log.stat().st_size if paths.log.exists() else 0
    proc = spawn.spawn([*args, *(["--restart"] if restart else [])], config_dir(config), paths.log)
    code = spawn.wait_started(proc, paths)
    if attach and code is None:
        code = terminal.follow(proc, paths, offset, quiet)
        if code is not None:
            return code
        print(f"detached: pid {proc.pid} goes on in the background", file=sys.stderr)
    elif code is not None:
        reason = spawn.last_error(paths.log) or f"the daemon exited with code {code}; see {paths.log}"
        print(f"autoresearch: {reason}")
        return code
    name = cfg.experiment_name
    print(f"started experiment {name} in the background (pid {proc.pid})")
    print(f"  log:    {paths.log}   (autoresearch logs {name} -f)")
    print(f"  chart:  {paths.chart}   (autoresearch serve {name})")
    print(f"  status: autoresearch status {name}    stop: autoresearch stop {name}")
    return OK


def _settle_versions(cfg: "Config", config: Path) -> None:
    """A `rollback` or `promote` cut short left the checkout half-way: settled before the run checks it."""
    from autoresearch.plumbing.repo import config_root

    root = config_root(config)
    if root is not None:
        settle_versions(root / cfg.results_dir)


def _flags(overrides: JSONObject) -> list[str]:
    flags: list[str] = []
    for key, value in overrides.items():
        name = "--" + key.split(".")[-1].replace("_", "-")
        if isinstance(value, bool):
            flags.append(name if value else name.replace("--", "--no-", 1))
        elif value is not None:
            flags += [name, str(value)]
    return flags
