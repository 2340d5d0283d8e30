"""AgentV 5's `environment:` recipe (inline, or a `file://` reference), as its loaders/environment-recipe.ts reads it.

A `type: host` recipe runs here, the suite's or a test's own (which replaces
it; `autoresearch.runs.parse.agentv5.place`): its `workdir` (relative to the
eval file, or to the recipe file) is the one workspace the tests naming it run
in, in place, after its optional `setup` command. A `type: docker` recipe is
read by `autoresearch.runs.evalfile.docker_recipe`. AgentV's own checks
(type, workdir, setup's argv, unknown fields) are problems naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autoresearch.runs.evalfile import docker_recipe
from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment, DockerSetup
from autoresearch.runs.evalfile.interpolate import env_references, interpolate
from autoresearch.runs.evalfile.problems import Problems, one_line
from autoresearch.runs.evalfile.yamlload import load_yaml

DEFAULT_SETUP_TIMEOUT_MS = 600_000
"""AgentV 5 waits for a setup without a `timeout_ms` as long as it takes; here ten minutes bound it."""
SETUP_FIELDS = ("command", "cwd", "timeout_ms")


@dataclass(frozen=True)
class Setup:
    command: tuple[str, ...]
    cwd: str | None = None  # relative to the workdir; None: the eval file's (or recipe file's) directory
    timeout_ms: float = DEFAULT_SETUP_TIMEOUT_MS


REFUSED = Setup(())
"""A setup AgentV 5 throws on (the problem is reported): the recipe is dropped."""


@dataclass(frozen=True)
class HostEnvironment:
    """A host recipe: the directory the tests run in (made when missing) and the command that prepares it."""

    workdir: Path
    source_dir: Path
    setup: Setup | None = None
    env: dict[str, str] = field(default_factory=dict)

    def setup_cwd(self) -> Path:
        if self.setup is None or not self.setup.cwd:
            return self.source_dir
        return (self.workdir / self.setup.cwd).resolve()


def parse(raw: Any, directory: Path, problems: Problems) -> HostEnvironment | DockerEnvironment | None:
    """The recipe, or None (none given, or a problem reported)."""
    if raw is None:
        return None
    if isinstance(raw, str):
        if not raw.startswith("file://"):
            problems.add(None, "environment", "must be an inline recipe object or a file:// reference to a recipe file")
            return None
        path = (directory / raw.removeprefix("file://")).resolve()
        try:
            raw = load_yaml(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            problems.add(None, "environment", f"recipe file not found or unreadable: {path} ({one_line(exc)})")
            return None
        directory = path.parent
    raw = interpolate(env_references(raw))
    if not isinstance(raw, dict):
        problems.add(None, "environment", "must be an object with type: host|docker and workdir")
        return None
    if raw.get("type") == "docker":
        return _docker(raw, directory, problems)
    if raw.get("type") != "host":
        problems.add(None, "environment.type", "must be 'host' or 'docker'")
        return None
    return _host(raw, directory, problems)


def _host(raw: dict[str, Any], directory: Path, problems: Problems) -> HostEnvironment | None:
    unknown = [k for k in raw if k not in ("type", "workdir", "setup", "env")]
    workdir = raw.get("workdir")
    env = raw.get("env", {})
    ok = True
    if unknown:
        problems.add(None, f"environment.{unknown[0]}", "is not supported in environment recipes")
        ok = False
    if not isinstance(workdir, str) or not workdir.strip():
        problems.add(None, "environment.workdir", "must be a non-empty string")
        ok = False
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        problems.add(None, "environment.env", "must be an object of string values")
        ok = False
    setup = _setup(raw.get("setup"), problems) if raw.get("setup") is not None else None
    if not ok or setup is REFUSED:
        return None
    return HostEnvironment((directory / str(workdir).strip()).resolve(), directory, setup, dict(env))


def _docker(raw: dict[str, Any], directory: Path, problems: Problems) -> DockerEnvironment | None:
    setup = _setup(raw["setup"], problems) if raw.get("setup") is not None else None
    if setup is REFUSED:
        return None
    timeout = raw["setup"].get("timeout_ms") if setup is not None else None
    own = DockerSetup(setup.command, setup.cwd, timeout) if setup is not None else None
    return docker_recipe.parse(raw, directory, problems, own)


def _setup(raw: Any, problems: Problems) -> Setup:
    """The setup, or REFUSED (the problem said)."""
    if not docker_recipe.known_object(
        raw, "environment.setup", SETUP_FIELDS, problems, "is not supported (setup takes command, cwd, timeout_ms)"
    ):
        return REFUSED
    command = raw.get("command")
    if not isinstance(command, list) or not command or not all(isinstance(c, str) and c.strip() for c in command):
        problems.add(
            None, "environment.setup.command", "must be a non-empty string array (argv, command[0] the executable)"
        )
        return REFUSED
    cwd, timeout = raw.get("cwd"), raw.get("timeout_ms")
    if cwd is not None and (not isinstance(cwd, str) or not cwd.strip()):
        problems.add(None, "environment.setup.cwd", "must be a non-empty string")
        return REFUSED
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        problems.add(None, "environment.setup.timeout_ms", "must be a positive number of milliseconds")
        return REFUSED
    return Setup(tuple(command), cwd.strip() if cwd else None, timeout or DEFAULT_SETUP_TIMEOUT_MS)
