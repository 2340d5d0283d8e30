"""A stand-in for the `docker` CLI, for tests and the bench where no Docker engine runs: NOT an engine.

It appends its argv (one JSON line) to $DOCKER_STUB_LOG and plays the engine
in the state $DOCKER_STUB_MODE names:

- `up`: every command succeeds; `run` and `exec` run their command ON THE
  HOST (no isolation, no image), with the `--env` variables over the host's
  environment, in the host directory a `--volume` maps the `--workdir` to
  (else that directory when it exists on the host, else where docker runs);
- `down`: `docker version` fails (the engine is not running);
- `absent`: the image is not local (`image inspect` fails), `pull` succeeds;
- `unpullable`: not local, and `pull` fails;
- `unbuildable`: `build` fails;
- `uncreatable`: `create` and `run` fail as the daemon does (exit 125);
- `noexec`: `exec` and `run` cannot start the command (exit 126).

What a container was created with (`create`) is kept in $DOCKER_STUB_STATE
(a directory), so its `exec`s get the same environment and mounts.

Its input, when a pipe or socket, is read to its end before it exits: AgentV 5
writes each docker command's input (empty for most) after starting it, with no
handler for the write's error, so a stand-in that exited first (AgentV's node
descheduled for the ~30 ms a Python start takes, on a busy machine) crashed
AgentV with an unhandled EPIPE and its run lost the rows of the tests left.
Not for `run`: AgentV starts its sandbox's `docker run --rm` with an input it
never writes nor closes (docker's `run` without `-i` does not read it).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

VALUED = {"--name", "--network", "--workdir", "--memory", "--cpus", "--env", "--volume", "-f", "-t", "--format"}


def main(args: list[str]) -> int:
    with open(os.environ["DOCKER_STUB_LOG"], "a") as log:
        log.write(json.dumps(args) + "\n")
    mode = os.environ.get("DOCKER_STUB_MODE", "up")
    verb = args[:1]
    if verb == ["version"]:
        return 1 if mode == "down" else _say("28.2.2")
    if args[:2] == ["image", "inspect"]:
        return 1 if mode in ("absent", "unpullable") else _say("[]")
    if verb == ["pull"]:
        return _fail("Error response from daemon: pull access denied", 1) if mode == "unpullable" else 0
    if verb == ["build"]:
        return _fail("failed to solve: no such file", 1) if mode == "unbuildable" else 0
    if verb in (["create"], ["run"]) and mode == "uncreatable":
        return _fail("docker: Error response from daemon: cannot allocate memory.", 125)
    if verb == ["create"]:
        flags, _ = _flags(args[1:])
        state = Path(os.environ["DOCKER_STUB_STATE"]) / flags["--name"][-1]
        state.write_text(json.dumps(flags))
        return _say("c0ffee")
    if verb in (["start"], ["rm"]):
        return 0
    if verb == ["run"]:
        flags, rest = _flags(args[1:])
        return _fail("OCI runtime create failed: exec: not found", 126) if mode == "noexec" else _host(flags, rest[1:])
    if verb == ["exec"]:
        own, rest = _flags([a for a in args[1:] if a != "-i"])
        flags = json.loads((Path(os.environ["DOCKER_STUB_STATE"]) / rest[0]).read_text())
        flags["--workdir"] = own.get("--workdir", flags.get("--workdir", []))
        return _fail("OCI runtime exec failed: exec failed", 126) if mode == "noexec" else _host(flags, rest[1:])
    return 2


def _flags(args: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """The valued options (each kept in order) and what follows them (the image or container, then the command)."""
    flags: dict[str, list[str]] = {}
    index = 0
    while index < len(args) and args[index].startswith("-"):
        if args[index] in VALUED:
            flags.setdefault(args[index], []).append(args[index + 1])
            index += 2
        else:
            index += 1
    return flags, args[index:]


def _host(flags: dict[str, list[str]], command: list[str]) -> int:
    env = {**os.environ, **dict(e.split("=", 1) for e in flags.get("--env", []))}
    workdir = flags.get("--workdir", [""])[-1]
    cwd = None
    for volume in flags.get("--volume", []):
        source, target, _access = volume.rsplit(":", 2)
        if workdir == target or workdir.startswith(target.rstrip("/") + "/"):
            cwd = source + workdir[len(target) :]
    if cwd is None and workdir and os.path.isdir(workdir):
        cwd = workdir
    return subprocess.run(command, env=env, cwd=cwd).returncode


def _drained() -> None:
    """Stdin read to its end when the caller writes it (a pipe, a socket): never a terminal or a file."""
    if stat.S_ISFIFO(mode := os.fstat(0).st_mode) or stat.S_ISSOCK(mode):
        while os.read(0, 1 << 16):
            pass


def _say(text: str) -> int:
    print(text)
    return 0


def _fail(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code


if __name__ == "__main__":
    code = main(sys.argv[1:])
    if sys.argv[1:2] != ["run"]:
        _drained()
    sys.exit(code)
