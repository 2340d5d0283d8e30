"""A `cli` target's command run in the container of AgentV 5's docker environment, as its sandbox-runner.ts runs it.

Without a setup: `docker run --rm --name agentv-sandbox-<uuid> --network none
--workdir <workdir> [--memory M] [--cpus C] --env K=V... --volume src:dst:ro|rw...
<image> /bin/sh -lc <command>`. With one: the same flags to `docker create ...
<image> sleep infinity`, then `docker start`, the setup (`docker exec -i --workdir
<its cwd> <name> <argv>`, the recipe's JSON on stdin), the command (`docker exec
--workdir <workdir> <name> /bin/sh -lc <command>`), and `docker rm -f` whatever
happened. The environment is the recipe's `env`, `AGENTV_ENVIRONMENT_WORKDIR`
and its `secrets`; the host's temporary directory is mounted at the same path,
so `{OUTPUT_FILE}` and `{PROMPT_FILE}` are where the runner reads and writes
them. `docker` runs in the eval file's (or recipe file's) directory. An exit
of 125 (the engine's own failure) or a `docker` that cannot start is the
sandbox's failure, reported by its output alone, as AgentV does.
"""

from __future__ import annotations

import json
import shlex
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing import process
from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment
from autoresearch.runs.js import js_number

ENGINE_FAILURE = 125  # docker's exit code when the daemon, not the command, failed
STEP_TIMEOUT_S = 30  # create, start, rm


@dataclass(frozen=True)
class Ran:
    """The command's outcome in the container; `infra`: docker itself failed (AgentV's sandbox_infra_failure)."""

    done: process.Completed
    infra: bool = False


def run(recipe: DockerEnvironment, command: str, timeout_s: float | None, scratch: Path) -> Ran:
    """The rendered command run in a container of the recipe's image."""
    name = f"agentv-sandbox-{uuid.uuid4()}"
    image_command = ["sleep", "infinity"] if recipe.setup else ["/bin/sh", "-lc", command]
    flags = ["--name", name, "--network", "none", "--workdir", recipe.workdir, *_limits(recipe)]
    if recipe.setup is None:
        done = _docker(recipe, ["run", "--rm", *flags, recipe.tag, *image_command], scratch, timeout_s)
        if done.timed_out:  # AgentV removes the container of a command it killed
            _docker(recipe, ["rm", "-f", name], scratch, STEP_TIMEOUT_S)
        return _ran(done)
    created = _docker(recipe, ["create", *flags, recipe.tag, *image_command], scratch, STEP_TIMEOUT_S)
    if created.returncode != 0:
        return _ran(created)
    try:
        return _in_container(recipe, name, command, timeout_s, scratch)
    finally:
        _docker(recipe, ["rm", "-f", name], scratch, STEP_TIMEOUT_S)


def _in_container(recipe: DockerEnvironment, name: str, command: str, timeout_s: float | None, scratch: Path) -> Ran:
    started = _docker(recipe, ["start", name], scratch, STEP_TIMEOUT_S)
    if started.returncode != 0:
        return _ran(started)
    assert recipe.setup is not None
    setup_args = ["exec", "-i", "--workdir", recipe.setup_cwd(), name, *recipe.setup.command]
    timeout = recipe.setup.timeout_ms / 1000 if recipe.setup.timeout_ms else None
    setup = _docker(recipe, setup_args, scratch, timeout, stdin=_payload(recipe))
    if setup.returncode != 0:
        return _ran(setup)
    target = _docker(recipe, ["exec", "--workdir", recipe.workdir, name, "/bin/sh", "-lc", command], scratch, timeout_s)
    joined = process.Completed(
        target.returncode, setup.stdout + target.stdout, setup.stderr + target.stderr, target.duration_s
    )
    return _ran(joined)


def _limits(recipe: DockerEnvironment) -> list[str]:
    """The resource limits, the environment and the mounts, in AgentV's order."""
    flags = [*(["--memory", recipe.memory] if recipe.memory else [])]
    flags += ["--cpus", js_number(recipe.cpus)] if recipe.cpus is not None else []
    env = {**recipe.env, "AGENTV_ENVIRONMENT_WORKDIR": recipe.workdir, **recipe.secrets}
    for key, value in env.items():
        flags += ["--env", f"{key}={value}"]
    temp = str(Path(tempfile.gettempdir()).resolve())
    mounts = [(str(m.source), m.target, "ro" if m.read_only else "rw") for m in recipe.mounts]
    if not any(target == temp for _, target, _ in mounts):
        mounts.append((temp, temp, "rw"))
    for source, target, access in mounts:
        flags += ["--volume", f"{source}:{target}:{access}"]
    return flags


def _payload(recipe: DockerEnvironment) -> str:
    """What the setup reads on stdin: the recipe as AgentV 5's setupPayload gives it (with the image used)."""
    environment: dict[str, str] = {"type": "docker", "workdir": recipe.workdir, "image": recipe.tag}
    if recipe.context is not None:
        environment["context"] = str(recipe.context)
    if recipe.dockerfile is not None:
        environment["dockerfile"] = str(recipe.dockerfile)
    return json.dumps({"environment": environment}, indent=2)


def _docker(
    recipe: DockerEnvironment, args: list[str], scratch: Path, timeout_s: float | None, stdin: str | None = None
) -> process.Completed:
    command = shlex.join(["exec", "docker", *args])
    if stdin is not None:
        path = scratch / f"docker-stdin-{uuid.uuid4().hex}"
        path.write_text(stdin, encoding="utf-8")
        command += f" < {shlex.quote(str(path))}"
    try:
        return process.run(command, cwd=recipe.source_dir, log_prefix=scratch / "docker", timeout_s=timeout_s)
    except OSError as exc:  # the directory is gone: docker cannot start
        return process.Completed(ENGINE_FAILURE, "", str(exc), 0.0)


def _ran(done: process.Completed) -> Ran:
    return Ran(done, done.returncode == ENGINE_FAILURE)
