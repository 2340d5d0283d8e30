"""AgentV 5's docker environment made ready before each test, as its environment/docker.ts does it.

Before every test naming the recipe (AgentV 5 prepares it per test, not once):
the engine must answer (`docker version`), then the image is built from
`context` (`docker build -t <tag> [-f dockerfile] <context>`) or, for an
`image`, looked up (`docker image inspect`) and pulled when absent. A failure
makes the test an execution_error with AgentV's message; the target then runs
in a container (`autoresearch.runs.targets.container`).
"""

from __future__ import annotations

from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment
from autoresearch.runs.workspace.docker import DockerFailed, docker

PREPARING = "Failed to prepare Docker environment: "
UNAVAILABLE = "Docker environment configured but Docker CLI is not available. Install Docker and ensure it is running."
BUILD_TIMEOUT_S = 30 * 60
PULL_TIMEOUT_S = 1800  # AgentV's default docker timeout: a recipe has none of its own


def prepare(recipe: DockerEnvironment) -> None:
    """The engine answers and the image is there; raises DockerFailed with AgentV 5's message."""
    if docker(["version", "--format", "{{.Server.Version}}"], 10).returncode != 0:
        raise DockerFailed(PREPARING + UNAVAILABLE)
    if recipe.context is not None:
        build = ["build", "-t", recipe.tag, *(["-f", str(recipe.dockerfile)] if recipe.dockerfile else [])]
        done = docker([*build, str(recipe.context)], BUILD_TIMEOUT_S)
        if done.returncode != 0:  # AgentV's DockerEnvironmentSetupError: its message without the prefix
            details = done.stderr.strip() or done.stdout.strip()
            raise DockerFailed(f"docker build failed (exit {done.returncode})" + (f": {details}" if details else ""))
        return
    if docker(["image", "inspect", recipe.tag], 10).returncode == 0:
        return
    done = docker(["pull", recipe.tag], PULL_TIMEOUT_S)
    if done.returncode != 0:
        raise DockerFailed(f"{PREPARING}docker pull failed (exit {done.returncode}): {done.stderr.strip()}")
