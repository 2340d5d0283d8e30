"""The files holding a secret of a local service, kept out of every sandbox wherever they lie.

A sandboxed command sees the whole system read-only and, with the network (`network: true`), reaches the host's
127.0.0.1: the control API of any `autoresearch serve` of the user's, and a local Ray cluster. Each is guarded by a
token that gives more than the sandbox does (the API starts runs, rolls back, runs the eval; Ray runs code on the
cluster, unsandboxed), so no sandbox may read one: Ray's file (the one RAY_AUTH_TOKEN_PATH names, else
~/.ray/auth_token), and every control API token file (`serve` lists its own, one path a line, in the user's state
folder: a sandbox of one repository hides that repository's results only, not another's).

A Unix socket on a path the sandbox sees is a door too, network or not (a read-only mount does not stop a
`connect`): the user's runtime folder holds the systemd user manager's and the session bus's (`systemd-run
--user` runs any command outside the sandbox) and an editor's; Docker's socket makes its caller root, and for a
daemon run as root the system bus and systemd's own socket start any unit. Those are hidden as well (`doors`).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from autoresearch.plumbing import atomic

REGISTRY = "secret-files"


def registry() -> Path:
    """Where `serve` lists its token file: the XDG state folder, out of any repository."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "autoresearch" / REGISTRY


def register(path: Path) -> None:
    """`path` listed, and the files gone since left out (a temporary repository's), under a lock so that a
    second `serve` registering meanwhile loses nothing; the list replaced whole, never half-written."""
    path, listing = path.resolve(), registry()
    listing.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(listing.with_name(REGISTRY + ".lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        kept = [p for p in _listed() if p != path and p.is_file()]
        atomic.write_bytes(listing, b"".join(os.fsencode(p) + b"\n" for p in (*kept, path)))  # a name as its bytes
    finally:
        os.close(fd)  # the lock with it


def files() -> tuple[Path, ...]:
    """The secret files that exist now: Ray's, and the listed ones."""
    ray = os.environ.get("RAY_AUTH_TOKEN_PATH")
    found = [Path(ray)] if ray else []
    found += [Path.home() / ".ray" / "auth_token", *_listed()]
    return tuple(p for p in found if p.is_file())


def _listed() -> list[Path]:
    """The listed paths, each as its bytes: a folder's name that is not UTF-8 (`\\udcff` in a str) is the same folder
    read back, where text in UTF-8 held its escape, a path that does not exist, and left that token unhidden."""
    try:
        data = registry().read_bytes()
    except OSError:
        return []
    return [Path(os.fsdecode(line)) for line in data.split(b"\n") if line.startswith(b"/")]


# the system's sockets whose services run what a caller asks, outside any sandbox (as root, for root): Docker's,
# Podman's and containerd's; the system bus (systemd starts a unit on request) and systemd's own; snapd's; libvirt's
SYSTEM_DOORS = (
    *("run/docker.sock", "var/run/docker.sock", "run/podman/podman.sock", "run/containerd/containerd.sock"),
    *("run/dbus/system_bus_socket", "var/run/dbus/system_bus_socket", "run/systemd/private"),
    *("run/snapd.socket", "run/libvirt/libvirt-sock"),
)


def doors(system: Path = Path("/")) -> tuple[Path, ...]:
    """The folders and sockets of local services that run what they are asked, outside any sandbox (those that
    exist): the user's runtime folder, and `SYSTEM_DOORS` under the system's root `system`."""
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    found = (Path(runtime), *(system / door for door in SYSTEM_DOORS))
    return tuple(p for p in found if p.exists())
