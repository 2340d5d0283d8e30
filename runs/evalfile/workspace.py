"""AgentV's `workspace:` block as AgentV 4.42.4's yaml-parser reads it: a mapping, or a path to a YAML file holding one.

Relative paths (the template, a hook's `cwd`) are resolved against the eval
file's directory, or the workspace file's when the block is a path; a
test's block replaces the suite's field by field (each hook merged key by
key), exactly as mergeWorkspaceConfigs does. What cannot run here (a
Docker workspace, a static workspace path) and what AgentV itself rejects
(its removed fields) are problems; a repo `path` that leaves the workspace
is refused, so a clone can never land outside the temporary directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment
from autoresearch.runs.evalfile.environment import HostEnvironment
from autoresearch.runs.evalfile.extensions import Extension
from autoresearch.runs.evalfile.interpolate import interpolate
from autoresearch.runs.evalfile.problems import Problems, one_line
from autoresearch.runs.evalfile.yamlload import load_yaml

HOOK_NAMES = ("before_all", "before_each", "after_each", "after_all")
RESETS = ("none", "fast", "strict")
REMOVED = {
    "static_path": "workspace.static_path has been removed. Use workspace.path with workspace.mode=static.",
    "pool": "workspace.pool has been removed. Use workspace.mode='pooled' or 'temp'.",
    "static": "workspace.static has been removed. Use workspace.mode='static'.",
}
REPO_REMOVED = {
    "source": "workspace.repos[].source has been removed. Use workspace.repos[].repo.",
    "checkout": "workspace.repos[].checkout has been removed. Use top-level commit, base_commit, and ancestor.",
    "clone": "workspace.repos[].clone has been removed. Use top-level sparse if needed.",
}


@dataclass(frozen=True)
class Hook:
    """One lifecycle hook: a command (argv) run with the workspace context on stdin, and/or a git reset."""

    command: tuple[str, ...] = ()
    timeout_ms: float | None = None
    cwd: Path | None = None
    reset: str | None = None  # "none", "fast" or "strict"

    def merged(self, over: Hook | None) -> Hook:
        """AgentV's `{...suiteHook, ...caseHook}`: what the test's hook sets wins."""
        if over is None:
            return self
        return Hook(
            over.command or self.command,
            over.timeout_ms if over.timeout_ms is not None else self.timeout_ms,
            over.cwd or self.cwd,
            over.reset or self.reset,
        )


@dataclass(frozen=True)
class Repo:
    path: str | None = None
    repo: str | None = None
    ref: str | None = None  # `commit` (or its alias `base_commit`); None checks out HEAD
    ancestor: int = 0
    sparse: tuple[str, ...] = ()


@dataclass(frozen=True)
class Docker:
    """`workspace.docker`: the image code-graders run in (`autoresearch.runs.workspace.docker`)."""

    image: str
    timeout_s: float = 1800.0  # AgentV's default for a pull and a grader's run in the container
    memory: str | None = None
    cpus: float | None = None


@dataclass(frozen=True)
class Workspace:
    template: Path | None = None
    isolation: str | None = None  # "shared" (AgentV's default) or "per_test"
    repos: tuple[Repo, ...] | None = None
    hooks: dict[str, Hook] = field(default_factory=dict)
    hooks_enabled: bool | None = None
    has_hooks: bool = False  # AgentV tests the `hooks` object itself, even one that only sets `enabled`
    mode: str | None = (
        None  # "pooled", "temp", or "static" with no `path` (refused): temp without repos, an error with them
    )
    env_commands: tuple[str, ...] = ()
    env_modules: tuple[str, ...] = ()
    file_dir: Path | None = None  # the workspace file's directory, when the block is a path
    docker: Docker | None = None
    host: HostEnvironment | None = None  # AgentV 5's host environment: its workdir is the shared workspace, in place
    extensions: tuple[Extension, ...] = ()  # AgentV 5's extension hooks, run in the shared workspace
    container: DockerEnvironment | None = None  # AgentV 5's docker environment: the target runs in it

    def hook(self, name: str) -> Hook | None:
        return self.hooks.get(name) if self.hooks_enabled is not False else None

    def command(self, name: str) -> Hook | None:
        hook = self.hook(name)
        return hook if hook is not None and hook.command else None


def parse(raw: Any, base: Path, problems: Problems, test_id: str | None) -> Workspace | None:
    """The block at `raw` (a mapping or a path to a workspace file), or None when it configures nothing."""
    if raw is None:
        return None
    if isinstance(raw, str):
        return _from_file(raw, base, problems, test_id)
    return _parse(raw, base, problems, test_id, "workspace")


def _from_file(name: str, base: Path, problems: Problems, test_id: str | None) -> Workspace | None:
    path = (base / name).resolve()
    try:
        loaded = interpolate(load_yaml(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        problems.add(test_id, "workspace", f"Workspace file not found: {name} (resolved to {path})")
        return None
    except yaml.YAMLError as exc:
        problems.add(test_id, "workspace", f"{name} is not valid YAML: {one_line(exc)}")
        return None
    if not isinstance(loaded, dict):
        problems.add(test_id, "workspace", f"Invalid workspace file format: {path} (expected a YAML object)")
        return None
    parsed = _parse(loaded, path.parent, problems, test_id, f"workspace ({name})")
    if parsed is None and isinstance(loaded.get("workspace"), dict):
        problems.add(
            test_id,
            "workspace",
            f"{name}: external workspace files must contain the workspace config object directly; remove the top-level `workspace:` wrapper",
        )
    return replace(parsed, file_dir=path.parent) if parsed is not None else None


def _parse(raw: Any, base: Path, problems: Problems, test_id: str | None, where: str) -> Workspace | None:
    if not isinstance(raw, dict):
        return None  # AgentV ignores a block that is not a mapping
    for key, message in REMOVED.items():
        if key in raw:
            problems.add(test_id, f"{where}.{key}", message)
    if isinstance(raw.get("path"), str):
        problems.add(
            test_id,
            f"{where}.path",
            "unsupported by the built-in runner (static workspaces: a directory of yours the agent would edit in place); use eval.agentv to run it with AgentV",
        )
    template = raw.get("template") if isinstance(raw.get("template"), str) else None
    hooks, enabled, has_hooks = _hooks(raw.get("hooks"), base)
    isolation = raw.get("isolation") if raw.get("isolation") in ("shared", "per_test") else None
    mode = raw.get("mode") if raw.get("mode") in ("pooled", "temp", "static") else None
    repos = _repos(listed, problems, test_id, where) if isinstance(listed := raw.get("repos"), list) else None
    env = given if isinstance(given := raw.get("env"), dict) else {}
    commands, modules = _strings(env.get("required_commands")), _strings(env.get("required_python_modules"))
    docker = _docker(raw.get("docker"))
    if not (template or isolation or repos is not None or has_hooks or mode or commands or modules or docker):
        return None
    return Workspace(
        template=(base / template).resolve() if template else None,
        isolation=isolation,
        repos=repos,
        hooks=hooks,
        hooks_enabled=enabled,
        has_hooks=has_hooks,
        mode=mode,
        env_commands=commands,
        env_modules=modules,
        docker=docker,
    )


def _docker(raw: Any) -> Docker | None:
    """AgentV's parseDockerWorkspaceConfig: no text `image`, no Docker; a field of the wrong type is dropped."""
    if not isinstance(raw, dict) or not isinstance(raw.get("image"), str):
        return None

    def number(key: str) -> float | None:
        value = raw.get(key)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    timeout = number("timeout")
    return Docker(
        raw["image"],
        timeout if timeout is not None else Docker.timeout_s,
        raw["memory"] if isinstance(raw.get("memory"), str) else None,
        number("cpus"),
    )


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _hooks(raw: Any, base: Path) -> tuple[dict[str, Hook], bool | None, bool]:
    if not isinstance(raw, dict):
        return {}, None, False
    enabled = raw.get("enabled") if isinstance(raw.get("enabled"), bool) else None
    hooks = {name: hook for name in HOOK_NAMES if (hook := _hook(raw.get(name), base)) is not None}
    return hooks, enabled, bool(hooks) or enabled is not None


def _hook(raw: Any, base: Path) -> Hook | None:
    if not isinstance(raw, dict):
        return None
    command = _command(raw.get("command", raw.get("script")))
    reset = raw.get("reset") if raw.get("reset") in RESETS else None
    if not command and not reset:
        return None
    timeout = raw.get("timeout_ms")
    timeout = float(timeout) if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else None
    cwd = (base / raw["cwd"]).resolve() if command and isinstance(raw.get("cwd"), str) else None
    return Hook(command, timeout, cwd, reset)


def _command(raw: Any) -> tuple[str, ...]:
    """AgentV's parseCommandArray: a list of strings, or a string split on whitespace."""
    if isinstance(raw, str):
        return tuple(raw.split())
    if isinstance(raw, list):
        return tuple(s for s in raw if isinstance(s, str))
    return ()


def _repos(raw: list[Any], problems: Problems, test_id: str | None, where: str) -> tuple[Repo, ...]:
    repos = []
    for index, item in enumerate(raw):
        here = f"{where}.repos[{index}]"
        if not isinstance(item, dict):
            continue
        for key, message in REPO_REMOVED.items():
            if key in item:
                problems.add(test_id, f"{here}.{key}", message)
        text = {
            k: v for k in ("path", "repo", "commit", "base_commit") if isinstance(v := item.get(k), str) and v.strip()
        }
        if "commit" in text and "base_commit" in text and text["commit"] != text["base_commit"]:
            problems.add(
                test_id, f"{here}.commit", "workspace.repos[].commit and workspace.repos[].base_commit must match."
            )
        ancestor = given if isinstance(given := item.get("ancestor"), int) and not isinstance(given, bool) else 0
        sparse = _strings(item.get("sparse"))
        if not (text or item.get("ancestor") is not None or sparse):
            continue
        if "path" in text and not _inside(text["path"]):
            problems.add(
                test_id,
                f"{here}.path",
                f"{text['path']!r} leaves the workspace; a repo's path must be relative and stay inside it",
            )
        repos.append(
            Repo(text.get("path"), text.get("repo"), text.get("commit", text.get("base_commit")), ancestor, sparse)
        )
    return tuple(repos)


def _inside(path: str) -> bool:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    return bool(parts) and not path.startswith(("/", "\\")) and ".." not in parts


def merge(suite: Workspace | None, case: Workspace | None) -> Workspace | None:
    """AgentV's mergeWorkspaceConfigs: the test's fields replace the suite's; `env` survives only unmerged."""
    if suite is None or case is None:
        return case or suite
    hooks: dict[str, Hook] = {}
    for name in HOOK_NAMES:
        low, high = suite.hooks.get(name), case.hooks.get(name)
        if low is not None:
            hooks[name] = low.merged(high)
        elif high is not None:
            hooks[name] = high
    enabled = case.hooks_enabled if case.hooks_enabled is not None else suite.hooks_enabled
    return Workspace(
        template=case.template or suite.template,
        isolation=case.isolation or suite.isolation,
        repos=case.repos if case.repos is not None else suite.repos,
        hooks=hooks,
        hooks_enabled=enabled,
        has_hooks=bool(hooks) or enabled is not None,
        mode=case.mode or suite.mode,
        file_dir=case.file_dir or suite.file_dir,
        docker=case.docker or suite.docker,
        host=case.host or suite.host,
        extensions=case.extensions or suite.extensions,
        container=case.container or suite.container,
    )


def target_hooks(raw: Any) -> dict[str, Hook]:
    """The `hooks` of an `execution.targets` entry, as AgentV's config-loader reads them (not as a workspace's):
    a string command runs through `sh -c`, `timeoutMs` is an alias, `cwd` is kept as written (relative to the
    directory the run started in), and there is no `reset`. For whoever wires `execution.targets` to
    `autoresearch.runs.workspace.lifecycle.SuiteWorkspaces`."""
    if not isinstance(raw, dict):
        return {}
    hooks = {}
    for name in HOOK_NAMES:
        item = raw.get(name)
        if not isinstance(item, dict):
            continue
        source = item.get("command", item.get("script"))
        command = ("sh", "-c", source) if isinstance(source, str) else _strings(source)
        if not command:
            continue
        timeout = next(
            (
                t
                for t in (item.get("timeout_ms"), item.get("timeoutMs"))
                if isinstance(t, (int, float)) and not isinstance(t, bool)
            ),
            None,
        )
        cwd = Path(item["cwd"]) if isinstance(item.get("cwd"), str) else None
        hooks[name] = Hook(command, float(timeout) if timeout is not None else None, cwd)
    return hooks
