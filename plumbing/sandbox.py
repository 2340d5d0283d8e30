"""A kernel sandbox for a command we do not trust (a command mutator, an eval): bubblewrap on Linux.

What the scope guard repairs after the fact, a mount namespace prevents: the
whole system is read-only, /tmp is a fresh tmpfs, the `hidden` paths (the
results directory with its records, backups and token) are not there at all,
and only the `writable` paths, the `copies` (throwaway copies seen at real
paths: a coding agent's homes) and the `work` folder (a throwaway checkout) can
change. A PID namespace tied to the daemon (`--die-with-parent`) ends
everything the command started, `setsid` or double fork, when the command or
the daemon ends. bubblewrap stays in the process group `process.run` made for
it (no `--new-session`), so that the daemon's SIGKILL of that group also
reaches the namespace's init, whose death ends the namespace: a bwrap killed
as it started left an init that had not yet asked for `--die-with-parent`'s
signal, alive after the daemon. A session of its own would add nothing: the group's
session, made by `process.run`, has no terminal (stdin is /dev/null, /dev the
sandbox's own), so there is none to push keystrokes into (TIOCSTI). The
tokens of the local services it could reach (a Ray cluster's, the control
API's: see autoresearch.plumbing.service_secrets) are
kept out of every sandbox, from its environment and its files, and so are
the sockets of the services that would run a command for it outside. Those
in the abstract namespace, which a mount cannot hide and the host's network
(`network: true`) shares, are closed by a Landlock domain bubblewrap starts in
(autoresearch.plumbing.landlock), where the kernel has one with scopes.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from autoresearch.plumbing import landlock, service_secrets

PROGRAM = "bwrap"
WORK = Path("/tmp/autoresearch-sandbox/work")  # where the `work` folder is seen: out of the user's tree
_PROBE_TIMEOUT_S = 10

Access = Literal["hidden", "read", "write"]
# Ray's token authentication: the token itself, or the file holding it (hidden: service_secrets)
SECRET_VARIABLES = ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")


@dataclass(frozen=True)
class Sandbox:
    """What a sandboxed command may see and change; everything else is read-only."""

    hidden: tuple[Path, ...] = ()  # not there at all (an empty folder, an empty file)
    readable: tuple[Path, ...] = ()  # read-only even inside a hidden folder or under /tmp
    writable: tuple[Path, ...] = ()  # changes land in the real files
    # (a throwaway copy, the real path where the command sees it, writable): changes land in the copy
    copies: tuple[tuple[Path, Path], ...] = ()
    network: bool = True
    program: str = PROGRAM
    # a writable folder seen at WORK (a throwaway checkout, an eval's run directory): out of the user's tree,
    # where a `git clean -x` or `rm -rf` of that tree cannot reach it
    work: Path | None = None

    def opening(
        self,
        readable: tuple[Path, ...] = (),
        writable: tuple[Path, ...] = (),
        work: Path | None = None,
        copies: tuple[tuple[Path, Path], ...] = (),
    ) -> Sandbox:
        """The same sandbox with more paths shown (those of one command)."""
        return replace(
            self,
            readable=(*self.readable, *readable),
            writable=(*self.writable, *writable),
            work=work,
            copies=(*self.copies, *copies),
        )

    def seen(self, path: Path) -> Path:
        """Where the command sees `path`: the same place, unless it lies in `work`."""
        if self.work is None or not path.is_relative_to(self.work):
            return path
        return WORK / path.relative_to(self.work)

    def argv(self, command: list[str], cwd: Path) -> list[str]:
        """`command` run in the sandbox, in `cwd` (as the command sees it), held in the Landlock domain that
        closes the abstract Unix sockets made outside where this kernel has one (see `unscoped`)."""
        bare = self.bare(command, cwd)
        return bare if unscoped(self.program) else landlock.wrapped(bare)

    def bare(self, command: list[str], cwd: Path) -> list[str]:
        """`command` run by bubblewrap alone: the mounts and namespaces, no Landlock domain."""
        mounts: list[tuple[Path, Access]] = [
            (p, "hidden") for p in (*self.hidden, *service_secrets.files(), *service_secrets.doors())
        ]
        mounts += [(p, "read") for p in self.readable] + [(p, "write") for p in self.writable]
        mounts += [(self.work, "write")] if self.work is not None else []
        real = replace(self, work=self.work.resolve()) if self.work is not None else self
        args = [self.program, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        # a mount hides what an earlier one put below it: folders first, what lies inside them after
        placed: list[tuple[Path, Path, Access]] = [(real.seen(p.resolve()), p.resolve(), a) for p, a in mounts]
        # a copy last: it wins over a real folder shared at the same path (a `writable` naming an agent's home)
        placed += [(at.resolve(), copy, "write") for copy, at in self.copies]
        placed.sort(key=_depth)
        for at, path, access in placed:
            args += _mount(at, path, access)
        args += ["--unshare-pid", "--die-with-parent"]
        args += [] if self.network else ["--unshare-net"]
        args += [arg for name in SECRET_VARIABLES for arg in ("--unsetenv", name)]
        return [*args, "--chdir", str(cwd), "--", *command]


def _depth(mount: tuple[Path, Path, Access]) -> int:
    return len(mount[0].parts)


def _mount(at: Path, path: Path, access: Access) -> list[str]:
    """The mount of `path` at `at`; a path that does not exist is left out (bwrap could not make its
    mount point in the read-only system)."""
    if access == "hidden":
        if path.is_dir():
            return ["--tmpfs", str(at)]
        return ["--ro-bind", "/dev/null", str(at)] if path.exists() else []
    return ["--ro-bind-try" if access == "read" else "--bind-try", str(path), str(at)]


def unscoped(bwrap: str) -> str | None:
    """Why a sandbox made with `bwrap` leaves the abstract Unix sockets made outside it reachable (with the
    host's network; `network: false`'s own namespace has none of them), or None where they are closed."""
    if why := landlock.missing():
        return why
    found = shutil.which(bwrap)
    if found is not None and os.stat(found).st_mode & stat.S_ISUID:  # the domain's no-new-privileges: no root
        return f"{found} is setuid, and a Landlock domain would take its privileges away"
    return _refused(bwrap)


_refusals: dict[str, str | None] = {}


def _refused(bwrap: str, timeout_s: float = _PROBE_TIMEOUT_S) -> str | None:
    """Why bubblewrap, which works here, could not start in the Landlock domain though the kernel has one (a
    process already in the 16 nested domains Landlock allows, a security module refusing it no-new-privileges),
    or None. Tried once per process and program, as `works` is: else every sandboxed command failed with 126
    while the start said nothing. A failure bubblewrap alone then has too (a machine out of processes for a
    moment), or no answer in time, is not remembered: taken for a refusal, it left the domain out for good."""
    if bwrap in _refusals or not works(bwrap, timeout_s):
        return _refusals.get(bwrap)
    bare = Sandbox(program=bwrap).bare(["true"], Path("/"))
    scoped = _tried(landlock.wrapped(bare), timeout_s)
    if scoped is None or scoped.returncode != 0 and _failed(bare, timeout_s):
        return None
    said = (scoped.stderr.strip().splitlines() or [f"exit {scoped.returncode}"])[-1]
    _refusals[bwrap] = (
        None if scoped.returncode == 0 else f"bubblewrap could not start in the Landlock domain here ({said})"
    )
    return _refusals[bwrap]


def _failed(argv: list[str], timeout_s: float) -> bool:
    """Whether `argv` failed, or did not end in time."""
    done = _tried(argv, timeout_s)
    return done is None or done.returncode != 0


def _tried(argv: list[str], timeout_s: float) -> subprocess.CompletedProcess[str] | None:
    """`argv` run to its end, or None when it did not end in time."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return None


def program() -> str | None:
    """bubblewrap's path, if it is installed."""
    return shutil.which(PROGRAM)


def unavailable(timeout_s: float = _PROBE_TIMEOUT_S) -> str | None:
    """Why no sandbox can be made here, or None when one can."""
    found = program()
    if found is None:
        return "bubblewrap (bwrap) is not installed"
    answer = works(found, timeout_s)
    if answer is None:
        return f"bubblewrap (bwrap) did not answer within {timeout_s:g} s, twice (is the machine overloaded?)"
    return None if answer else "bubblewrap (bwrap) cannot make a sandbox here (no user namespaces?)"


_known: dict[str, bool] = {}


def works(bwrap: str, timeout_s: float = _PROBE_TIMEOUT_S) -> bool | None:
    """Whether `bwrap` can make a sandbox here (it cannot in some containers, without user namespaces);
    None when it did not answer in time, twice. Only an answer is remembered (once per process and
    program): a probe that timed out on a loaded machine says nothing, and the next call asks again."""
    if bwrap in _known:
        return _known[bwrap]
    probe = Sandbox(program=bwrap).bare(["true"], Path("/"))  # bubblewrap's answer alone: `unscoped` is asked apart
    for _ in range(2):
        try:
            answer = subprocess.run(probe, capture_output=True, timeout=timeout_s).returncode == 0
        except subprocess.TimeoutExpired:
            continue
        except OSError:
            answer = False
        _known[bwrap] = answer
        return answer
    return None
