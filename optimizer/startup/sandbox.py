"""Whether this run's command mutator works in a kernel sandbox (`mutator.sandbox`), and what it shows.

`auto` sandboxes where bubblewrap works and says once at start when it does
not; `on` refuses to start without it (exit 30); `off` warns once per run.
Without a sandbox the scope guard alone holds the mutator to its scope; with
one, the guard stays as the second line. A sandbox that shares the host's
network leaves the abstract Unix sockets made outside it reachable where the
kernel cannot close them (no Landlock scopes): said once at start too.
"""

from __future__ import annotations

from pathlib import Path

from autoresearch.mutators.config import CommandMutatorConfig
from autoresearch.optimizer.config import Config
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import sandbox
from autoresearch.plumbing.errors import InvalidInput
from autoresearch.plumbing.paths import ExperimentPaths


def require(config: Config, root: Path) -> None:
    """`sandbox: on` (the mutator's, a check's) where no sandbox can be made, and a folder shared writable
    where the sandbox keeps the experiment (see `_require_writable_apart`): refused before anything starts."""
    m = config.mutator
    if isinstance(m, CommandMutatorConfig) and m.sandbox.mode != "off":
        _require_writable_apart(m, root / config.results_dir, root / ".git")
    if isinstance(m, CommandMutatorConfig) and m.sandbox.mode == "on" and (why := sandbox.unavailable()):
        raise InvalidInput(
            f"{m.field('mutator.sandbox')}: 'on', but {why}; install bubblewrap, or set it to auto or off"
        )
    for i, check in enumerate(config.gates.checks):
        if check.sandbox == "on" and (why := sandbox.unavailable()):
            raise InvalidInput(
                f"{config.field(f'gates.checks.{i}.sandbox')}: 'on', but {why}; "
                "install bubblewrap, or set it to auto or off"
            )


def _require_writable_apart(m: CommandMutatorConfig, *kept: Path) -> None:
    """No `writable` folder inside the results directory or .git: the sandbox hides the first (run
    directories being evaluated, the candidates' worktrees, the cache, the records) and shows the second
    read-only, and a writable mount below either would open it again (a deeper mount wins). A folder holding
    them (your home) is fine: the hiding mount lies deeper."""
    apart = [k.resolve() for k in kept]
    for i, (written, shared) in enumerate(zip(m.sandbox.writable, m.writable(), strict=True)):
        path = shared.resolve()
        if inside := next((k for k in apart if path.is_relative_to(k)), None):
            raise InvalidInput(
                f"{m.field(f'mutator.sandbox.writable.{i}')}: {written!r} ({path}) is inside {inside}, "
                "which no mutator may write (the experiment's results and records, or git's); share another folder"
            )


def open_for(config: Config, ws: Workspace, paths: ExperimentPaths, hidden: tuple[Path, ...]) -> sandbox.Sandbox | None:
    """The sandbox of this run's command mutator, or None (said once: off, or none can be made). It hides
    the results directory and `hidden` (the result cache), shows the checkout and its git folder read-only
    (a throwaway checkout's git reads them), and lets the configured folders change."""
    m = config.mutator
    if not isinstance(m, CommandMutatorConfig):
        return None
    log = get().bind(experiment=config.experiment_name)  # before the loop binds it for every line
    if m.sandbox.mode == "off":
        log.warning(
            f"{m.field('mutator.sandbox')} is off: the command mutator can write to your checkout; "
            "only the scope guard checks it"
        )
        return None
    if why := sandbox.unavailable():
        log.warning(f"no sandbox for the command mutator: {why}; only the scope guard checks it")
        return None
    git_dir = Path(ws.git("rev-parse", "--path-format=absolute", "--git-common-dir"))
    return sandbox.Sandbox(
        hidden=(paths.results_dir, *hidden),
        readable=(ws.root, git_dir),
        writable=m.writable(),
        network=m.sandbox.network,
        program=sandbox.program() or sandbox.PROGRAM,
    )


def say_unscoped(config: Config) -> None:
    """Said once at start when a sandbox this run makes with the host's network (the command mutator's with
    `network: true`, `eval.sandbox`'s, a check's) leaves the abstract Unix sockets made outside it reachable
    (an X server's, some D-Bus buses, which may run commands for whoever connects): the kernel cannot close
    them. Nothing is said where no sandbox is made: that is said already."""
    m = config.mutator
    shared = [isinstance(m, CommandMutatorConfig) and m.sandbox.mode != "off" and m.sandbox.network]
    shared += [config.eval.sandbox, *(check.sandbox != "off" for check in config.gates.checks)]
    if not any(shared) or sandbox.unavailable():
        return
    if why := sandbox.unscoped(sandbox.program() or sandbox.PROGRAM):
        get().bind(experiment=config.experiment_name).warning(
            f"the sandbox shares your network and with it the abstract Unix sockets (an X server's, "
            f"some D-Bus buses): {why}; `mutator.sandbox.network: false` closes them for a command mutator"
        )
