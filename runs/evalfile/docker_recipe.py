"""AgentV 5's `environment: {type: docker}` recipe, read as its loaders/environment-recipe.ts reads it.

The tests naming it run their `cli` target inside a container of the recipe's
image (`autoresearch.runs.workspace.docker_environment` makes the image ready,
`autoresearch.runs.targets.container` runs the command), as AgentV 5's
environment/docker.ts and providers/sandbox-runner.ts do. The workdir, the
setup's cwd and the mounts' targets are paths in the container; `context`,
`dockerfile` and the mounts' sources are host paths, relative to the eval file
(or to the recipe file). AgentV's checks are problems naming the field.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from autoresearch.runs.evalfile.problems import Problems

FIELDS = ("type", "workdir", "context", "dockerfile", "image", "env", "resources", "mounts", "secrets", "setup")
UNKNOWN = "is not supported in environment recipes"
RESOURCES = ("cpus", "memory", "disk", "gpu")  # disk and gpu: read and checked by AgentV 5, then unused
MOUNT_FIELDS = ("source", "target", "access", "read_only")


@dataclass(frozen=True)
class Mount:
    source: Path
    target: str
    read_only: bool = False  # `read_only: true`, else `access: ro`


@dataclass(frozen=True)
class DockerSetup:
    """The command run in the container before the target, with the recipe on stdin (every test, as AgentV 5)."""

    command: tuple[str, ...]
    cwd: str | None = None  # in the container, relative to the workdir; None: the workdir
    timeout_ms: float | None = None  # AgentV 5 waits as long as it takes without one


@dataclass(frozen=True)
class DockerEnvironment:
    workdir: str
    source_dir: Path  # where `docker` runs on the host: the eval file's (or recipe file's) directory
    image: str | None = None
    context: Path | None = None  # built (`docker build`) instead of pulled
    dockerfile: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    cpus: float | None = None
    memory: str | None = None
    mounts: tuple[Mount, ...] = ()
    setup: DockerSetup | None = None

    @property
    def tag(self) -> str:
        """The image the tests run in: `image`, else the tag AgentV 5 gives what it builds from `context`."""
        if self.image is not None:
            return self.image
        digest = hashlib.sha256(f"{self.context or ''}\0{self.dockerfile or ''}".encode()).hexdigest()
        return f"agentv-environment:{digest[:16]}"

    def setup_cwd(self) -> str:
        if self.setup is None or not self.setup.cwd:
            return self.workdir
        if self.setup.cwd.startswith("/"):
            return self.setup.cwd
        return _normal(PurePosixPath(self.workdir) / self.setup.cwd)


def _normal(path: PurePosixPath) -> str:
    """Node's path.posix.resolve for an absolute result: `..` and `.` folded, no filesystem consulted."""
    parts: list[str] = []
    for part in path.parts[1:] if path.is_absolute() else path.parts:
        if part == "..":
            parts = parts[:-1]
        elif part not in (".", ""):
            parts.append(part)
    return "/" + "/".join(parts)


def parse(
    raw: dict[str, Any], directory: Path, problems: Problems, setup: DockerSetup | None
) -> DockerEnvironment | None:
    """The recipe, or None (a problem reported). `setup` was read by the caller, as for a host recipe."""
    unknown = [k for k in raw if k not in FIELDS]
    if unknown:
        problems.add(None, f"environment.{unknown[0]}", "is not supported in environment recipes")
        return None
    strings = {key: _string(raw, key, problems) for key in ("workdir", "context", "dockerfile", "image")}
    if strings["workdir"] is None:
        problems.add(None, "environment.workdir", "must be a non-empty string")
    if strings["workdir"] is None or any(value is False for value in strings.values()):
        return None
    env, secrets = _record(raw, "env", problems), _record(raw, "secrets", problems)
    resources, mounts = _resources(raw.get("resources"), problems), _mounts(raw.get("mounts"), directory, problems)
    if env is None or secrets is None or resources is None or mounts is None:
        return None
    if not strings["context"] and not strings["image"]:
        problems.add(None, "environment", "docker recipes must define either 'image' or 'context'")
        return None
    context, dockerfile = strings["context"], strings["dockerfile"]
    return DockerEnvironment(
        str(strings["workdir"]),
        directory,
        image=str(strings["image"]) if strings["image"] else None,
        context=(directory / str(context)).resolve() if context else None,
        dockerfile=(directory / str(dockerfile)).resolve() if dockerfile else None,
        env=env,
        secrets=secrets,
        cpus=resources.get("cpus"),
        memory=resources.get("memory"),
        mounts=mounts,
        setup=setup,
    )


def known_object(raw: Any, where: str, fields: tuple[str, ...], problems: Problems, unknown_is: str = UNKNOWN) -> bool:
    """Whether `raw` is an object of known fields only; the first problem reported, as AgentV 5 throws on it."""
    if not isinstance(raw, dict):
        problems.add(None, where, "must be an object")
        return False
    unknown = [k for k in raw if k not in fields]
    if unknown:
        problems.add(None, f"{where}.{unknown[0]}", unknown_is)
        return False
    return True


def _mount_problem(entry: dict[str, Any]) -> tuple[str, str] | None:
    """The first field of a mount AgentV 5 throws on, and why."""
    unknown = [k for k in entry if k not in MOUNT_FIELDS]
    if unknown:
        return f".{unknown[0]}", "is not supported in environment recipes"
    for key in ("source", "target"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            return f".{key}", "must be a non-empty string"
    if entry.get("access") not in (None, "ro", "rw"):
        return ".access", "must be 'ro' or 'rw'"
    if entry.get("read_only") is not None and not isinstance(entry["read_only"], bool):
        return ".read_only", "must be a boolean"
    return None


def _string(raw: dict[str, Any], key: str, problems: Problems) -> str | None | bool:
    """The trimmed string, None when absent, False when it is there and not a non-empty string (reported)."""
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        problems.add(None, f"environment.{key}", "must be a non-empty string")
        return False
    return value.strip()


def _record(raw: dict[str, Any], key: str, problems: Problems) -> dict[str, str] | None:
    value = raw.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        problems.add(None, f"environment.{key}", "must be an object of string values")
        return None
    return {str(k): v for k, v in value.items()}


def _resources(raw: Any, problems: Problems) -> dict[str, Any] | None:
    if raw is None:
        return {}
    if not known_object(raw, "environment.resources", RESOURCES, problems):
        return None
    cpus, memory = raw.get("cpus"), raw.get("memory")
    if cpus is not None and (isinstance(cpus, bool) or not isinstance(cpus, (int, float)) or cpus <= 0):
        problems.add(None, "environment.resources.cpus", "must be a positive number")
        return None
    for key in ("memory", "disk"):
        if raw.get(key) is not None and (not isinstance(raw[key], str) or not raw[key].strip()):
            problems.add(None, f"environment.resources.{key}", "must be a non-empty string")
            return None
    if raw.get("gpu") is not None and not isinstance(raw["gpu"], (bool, str)):
        problems.add(None, "environment.resources.gpu", "must be a boolean or string")
        return None
    return {"cpus": cpus, "memory": memory.strip() if memory else None}


def _mounts(raw: Any, directory: Path, problems: Problems) -> tuple[Mount, ...] | None:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.add(None, "environment.mounts", "must be an array")
        return None
    mounts = []
    for index, entry in enumerate(raw):
        where = f"environment.mounts[{index}]"
        if not isinstance(entry, dict):
            problems.add(None, where, "must be an object")
            return None
        problem = _mount_problem(entry)
        if problem is not None:
            problems.add(None, where + problem[0], problem[1])
            return None
        source, target = str(entry["source"]).strip(), str(entry["target"]).strip()
        read_only = entry.get("read_only") is True or entry.get("access") == "ro"
        mounts.append(Mount((directory / source).resolve(), target, read_only))
    return tuple(mounts)
