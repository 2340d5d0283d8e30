"""Docker workspaces (`workspace.docker`), through the `docker` CLI exactly as AgentV 4.42.4's docker-workspace.ts.

Before the first test the engine must answer (`docker version`) and the
image be there (`docker image inspect`, else `docker pull`); a failure makes
every test an execution_error. A code-grader of a test with `docker` then
runs in a fresh container: created with the resource limits, started, its
repos reset to their `commit`, the grader run with the payload on stdin,
the container removed whatever happened. Only graders run in the container:
the target answers on the host, as in AgentV.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from autoresearch.plumbing import owned, process
from autoresearch.runs.errors import StepFailed
from autoresearch.runs.evalfile.workspace import Docker, Repo

UNAVAILABLE = "Docker workspace configured but Docker CLI is not available. Install Docker and ensure it is running."


class DockerFailed(StepFailed, OSError):
    """A docker command failed; the message is AgentV's. An OSError too: the runner's `except (TargetFailed,
    OSError)` and the workspace's `SetupError` catch it as they catch a command that cannot start."""


def docker(args: list[str], timeout_s: float, stdin: str | None = None) -> process.Completed:
    with owned.temporary("autoresearch-docker-") as scratch:
        command = shlex.join(["docker", *args])
        if stdin is not None:
            path = Path(scratch) / "stdin"
            path.write_text(stdin, encoding="utf-8")
            command += f" < {shlex.quote(str(path))}"
        try:
            return process.run(command, cwd=Path(scratch), log_prefix=Path(scratch) / "docker", timeout_s=timeout_s)
        except OSError as exc:
            return process.Completed(127, "", str(exc), 0.0)


def _checked(args: list[str], timeout_s: float, what: str) -> str:
    done = docker(args, timeout_s)
    if done.returncode != 0:
        raise DockerFailed(f"{what} failed (exit {done.returncode}): {done.stderr.strip()}")
    return done.stdout


def prepare(config: Docker) -> None:
    """The engine answers and the image is local (pulled if it is not)."""
    if docker(["version", "--format", "{{.Server.Version}}"], 10).returncode != 0:
        raise DockerFailed(UNAVAILABLE)
    if docker(["image", "inspect", config.image], 10).returncode == 0:
        return
    _checked(["pull", config.image], config.timeout_s, "docker pull")


def run_grader(config: Docker, argv: list[str], stdin: str, repos: tuple[Repo, ...] | None) -> process.Completed:
    """The grader's argv in a container of its own, removed afterwards; a docker step that fails raises."""
    create = ["create"]
    if config.memory:
        create.append(f"--memory={config.memory}")
    if config.cpus is not None:
        create.append(f"--cpus={config.cpus:g}")
    container = _checked([*create, config.image, "sleep", "infinity"], 30, "docker create").strip()
    try:
        _checked(["start", container], 30, "docker start")
        for repo in repos or ():
            if repo.ref:
                _reset(container, repo, config.timeout_s)
        return docker(["exec", "-i", container, *argv], config.timeout_s, stdin)
    finally:
        docker(["rm", "-f", container], 30)


def _reset(container: str, repo: Repo, timeout_s: float) -> None:
    assert repo.ref is not None
    git = ["git", "-C", repo.path] if repo.path else ["git"]
    done = docker(["exec", container, *git, "reset", "--hard", repo.ref], timeout_s)
    if done.returncode != 0:
        raise DockerFailed(f"docker git reset failed (exit {done.returncode}): {done.stderr.strip()}")
    head = docker(["exec", container, *git, "rev-parse", "HEAD"], 30)
    if head.returncode != 0:
        raise DockerFailed(f"docker checkout verification failed (exit {head.returncode}): {head.stderr.strip()}")
    if head.stdout.strip() != repo.ref:
        raise DockerFailed(
            f"docker checkout verification failed: expected {repo.ref} but found {head.stdout.strip() or '<empty>'}"
        )
