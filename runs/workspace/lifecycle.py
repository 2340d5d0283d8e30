"""A suite's workspaces through AgentV 4.42.4's lifecycle (workspace/setup.ts and the orchestrator), step for step.

Once per suite, from the first test's (merged) `workspace:`: unless
`isolation: per_test`, one shared workspace (the template copied, `repos`
cloned, `env` checked, `before_all` run, a git baseline committed). Per
test: its own workspace when none is shared (template, repos and its own
`before_all`), then `before_each` (reset, command; a fresh baseline after
it), the target run in the workspace, the file changes since the baseline
captured, `after_each` (reset, command) run, and only then the graders.
At the end `after_all` runs on the shared workspace. A setup step that
fails makes the test (every test, for a shared step) an execution_error
with AgentV's message; after_each and after_all failures are ignored.

Workspaces live under one temporary directory removed at the end (AgentV
keeps them under ~/.agentv; a pooled workspace is a fresh one here, which
scores the same), named by position, never by test id, so no id can
place one outside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing import owned, trees
from autoresearch.runs.evalfile.model import Case, Suite
from autoresearch.runs.evalfile.workspace import Hook, Workspace
from autoresearch.runs.workspace import docker, docker_environment, extensions, git, host
from autoresearch.runs.workspace.extensions import HookCall
from autoresearch.runs.workspace.hooks import HookContext, HookFailed, run_hook

SetupError = (git.GitFailed, HookFailed, OSError)


@dataclass
class CaseWorkspace:
    path: Path | None = None
    baseline: str | None = None
    error: str | None = None


class SuiteWorkspaces:
    """The workspaces of one suite's run: `open` before the first test, `enter`/`leave` around each, `close` at the end."""

    def __init__(self, suite: Suite, target_hooks: dict[str, Hook] | None = None):
        self.suite, self.eval_dir = suite, suite.directory
        self.target_hooks = (
            target_hooks or {}
        )  # the hooks of the target's `execution.targets` entry, run after the workspace's
        self.config: Workspace | None = suite.cases[0].workspace if suite.cases else None
        if suite.agentv >= 5:  # AgentV 5: the one environment some of its tests run in (`agentv5.place`)
            self.config = next((case.workspace for case in suite.cases if case.workspace is not None), None)
        self.run_id = str(uuid.uuid4())
        self.root: Path | None = None
        self.shared: Path | None = None
        self.shared_baseline: str | None = None
        self.error: str | None = None  # a shared setup step failed: every test is an execution_error with it
        self.manages_repos = False  # AgentV resets `repos` themselves only when it cloned them outside a pool
        self.git_dir: Path | None = None  # the file-changes baseline's repository, when not in the workspace
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return any(case.workspace is not None for case in self.suite.cases)

    def open(self) -> None:
        if not self.active:
            return
        self.root = Path(tempfile.mkdtemp(prefix="autoresearch-workspaces-", dir=owned.folder()))  # swept if killed
        cfg = self.config
        if cfg is None:
            return
        try:
            self._open_shared(cfg)
        except SetupError as exc:
            self.error = str(exc)
            return
        if self.shared is not None:
            if cfg.host is not None:  # the user's directory, in place: its baseline's repository stays out of it
                self.git_dir = self.root / "environment.git"
            try:
                self.shared_baseline = git.baseline(self.shared, self.git_dir)
            except git.GitFailed:
                pass  # AgentV: file changes are then unavailable, nothing else

    def _open_shared(self, cfg: Workspace) -> None:
        assert self.root is not None
        if cfg.host is not None or cfg.extensions:  # AgentV 5: its environment's workdir, else an empty one
            self.shared = host.prepare(cfg.host, self.root) if cfg.host is not None else self.root / "shared"
            self.shared.mkdir(exist_ok=True)
            call = HookCall(self.shared, "__before_all__", self.run_id, self.eval_dir)
            _fatal_extensions(cfg, "beforeAll", call)
            return
        per_test = cfg.isolation == "per_test"
        if cfg.mode == "static" and cfg.repos:  # without repos, AgentV falls back to a temporary workspace
            raise OSError("workspace.mode=static requires workspace.path or --workspace-path")
        pooled = cfg.mode not in ("temp", "static") and bool(cfg.repos) and not per_test
        if self.shares:
            self.shared = self.root / "shared"
            if cfg.template:  # a pool's template copy fails with the bare error, as AgentV's pool manager's
                _copy(cfg.template, self.shared, "" if pooled else "Failed to create shared workspace")
            else:
                self.shared.mkdir()
        if self.shared is not None and cfg.repos:
            self.manages_repos = not pooled
            _materialize(cfg, self.shared, self.eval_dir, "" if pooled else "Failed to materialize repos: ")
        if cfg.docker is not None:
            docker.prepare(cfg.docker)
        if cfg.env_commands or cfg.env_modules:
            _preflight(cfg)
        if self.shared is not None:
            _fatal(
                cfg.command("before_all"), self._context(cfg, self.shared, "__before_all__"), "before_all script failed"
            )
            _fatal(
                self.target_hooks.get("before_all"),
                self._context(cfg, self.shared, "__target_before_all__"),
                "target before_all hook failed",
            )

    @property
    def shares(self) -> bool:
        """Whether `open` makes one workspace for every test (AgentV's default isolation, with a template,
        hooks or repos to put in it): known before anything runs, so an executor can tell a run whose tests
        must take turns in one place from one whose tests each set up their own wherever they run."""
        cfg = self.config
        return cfg is not None and (
            cfg.host is not None
            or bool(cfg.extensions)
            or (cfg.isolation != "per_test" and bool(cfg.template or cfg.has_hooks or cfg.repos))
        )

    @property
    def serial(self) -> bool:
        """A shared workspace takes one test at a time (AgentV's advice, `workers: 1`): concurrent tests would edit each other's files."""
        return self.shared is not None

    def enter(self, case: Case) -> CaseWorkspace | None:
        """Set up the test's workspace; None when the test has none."""
        if self.error is not None:
            return CaseWorkspace(error=self.error)
        cfg = case.workspace
        if cfg is None and (self.shared is None or self.suite.agentv >= 5):  # AgentV 5: where the eval file is
            return None
        ws = CaseWorkspace(self.shared)
        try:
            if cfg is not None and cfg.container is not None:  # AgentV 5 prepares it before each test
                docker_environment.prepare(cfg.container)
            if ws.path is None and cfg is not None:
                ws.path = self._own(case, cfg)
            fresh = self._before_each(case, cfg, ws.path) if cfg is not None and ws.path is not None else False
        except SetupError as exc:
            return CaseWorkspace(ws.path, error=str(exc))
        ws.baseline = None if fresh else self.shared_baseline
        if ws.baseline is None and ws.path is not None:
            try:
                ws.baseline = git.baseline(ws.path, self.git_dir)
            except git.GitFailed:
                pass
        return ws

    def _own(self, case: Case, cfg: Workspace) -> Path | None:
        """A workspace of the test's own (no shared one): its template or an empty directory, its repos, its before_all."""
        assert self.root is not None
        with self._lock:
            path = Path(tempfile.mkdtemp(prefix="test-", dir=self.root)) / "workspace"
        if cfg.template:
            _copy(cfg.template, path, "Failed to create workspace")
        elif cfg.has_hooks or cfg.repos:
            path.mkdir()
        else:
            return None
        if cfg.repos:
            _materialize(cfg, path, self.eval_dir, "Failed to materialize repos: ")
        _fatal(cfg.command("before_all"), self._context(cfg, path, case.id, case), "before_all script failed")
        return path

    def _before_each(self, case: Case, cfg: Workspace, path: Path) -> bool:
        """Reset, then the command, then the target's; True when a command ran (the baseline is then taken afresh)."""
        hook = cfg.hook("before_each")
        if hook is not None and hook.reset and hook.reset != "none":
            try:
                self._reset(cfg, path, hook, self.shared_baseline)
            except git.GitFailed as exc:
                raise git.GitFailed(f"before_each reset failed: {exc}") from None
        ran = _fatal_extensions(cfg, "beforeEach", self._call(path, case))
        ctx = self._context(cfg, path, case.id, case)
        ran = _fatal(cfg.command("before_each"), ctx, "before_each script failed") or ran
        return _fatal(self.target_hooks.get("before_each"), ctx, "target before_each hook failed") or ran

    def leave(self, case: Case, ws: CaseWorkspace) -> str | None:
        """After the target answered: the file changes since the baseline, then after_each (whose failures AgentV ignores)."""
        changes = None
        if ws.path is None:
            return None
        if ws.baseline is not None:
            try:
                changes = git.file_changes(ws.path, ws.baseline, self.git_dir) or None
            except git.GitFailed:
                changes = None
        cfg = case.workspace
        if cfg is not None and cfg.extensions:
            self._ignoring_extension_failure(cfg, "afterEach", self._call(ws.path, case))
        if cfg is not None and "after_each" in self.target_hooks:
            self._ignoring_failure(self.target_hooks["after_each"], self._context(cfg, ws.path, case.id, case))
        hook = cfg.hook("after_each") if cfg is not None else None
        if cfg is not None and hook is not None:
            if hook.reset and hook.reset != "none":
                try:
                    self._reset(cfg, ws.path, hook, ws.baseline)
                except git.GitFailed:
                    pass
            if hook.command:
                self._ignoring_failure(hook, self._context(cfg, ws.path, case.id, case))
        return changes

    def close(self, run_hooks: bool = True) -> None:
        """The target's after_all, then the workspace's, on the shared workspace (failures ignored); then every workspace removed."""
        try:
            if run_hooks and self.shared is not None and self.error is None and self.config is not None:
                hooks = [
                    (self.target_hooks.get("after_all"), "__target_after_all__"),
                    (self.config.command("after_all"), "__after_all__"),
                ]
                for hook, test_id in hooks:
                    if hook is not None:
                        self._ignoring_failure(hook, self._context(self.config, self.shared, test_id))
                call = HookCall(self.shared, "__after_all__", self.run_id, self.eval_dir)
                self._ignoring_extension_failure(self.config, "afterAll", call)
        finally:
            if self.root is not None:
                _remove(self.root)

    @staticmethod
    def _ignoring_failure(hook: Hook, ctx: HookContext) -> None:
        """A hook AgentV runs in its 'warn' mode (after_each, after_all): its failure changes nothing."""
        try:
            run_hook(hook, ctx, fatal=False)
        except HookFailed:
            pass

    @staticmethod
    def _ignoring_extension_failure(cfg: Workspace, hook: str, call: HookCall) -> None:
        """afterEach and afterAll extensions: AgentV 5 ignores their failures, as teardown hooks'."""
        try:
            extensions.run(cfg.extensions, hook, call)
        except HookFailed:
            pass

    def _call(self, path: Path, case: Case) -> HookCall:
        return HookCall(path, case.id, self.run_id, self.eval_dir, case_input(case), case.metadata or None)

    def _reset(self, cfg: Workspace, path: Path, hook: Hook, commit: str | None) -> None:
        if self.manages_repos and cfg.repos:
            git.reset_repos(cfg.repos, path, hook.reset or "fast")
        else:
            git.reset_root(path, hook.reset or "fast", commit)

    def _context(self, cfg: Workspace, path: Path, test_id: str, case: Case | None = None) -> HookContext:
        return HookContext(
            path,
            test_id,
            self.run_id,
            self.eval_dir,
            cfg.file_dir,
            case_input(case) if case is not None else None,
            (case.metadata or None) if case is not None else None,
        )


def case_input(case: Case) -> str:
    """AgentV's `question` (a hook's `case_input`): the text of every input message, files left out, each
    piece trimmed, the empty ones dropped, joined by spaces."""
    texts = (
        part.text.strip() for message in case.messages for part in message.parts if part.file is None and part.text
    )
    return " ".join(t for t in texts if t)


def _fatal(hook: Hook | None, ctx: HookContext, failure: str) -> bool:
    """Run a hook whose failure fails the setup, with AgentV's message; True when there was one to run."""
    if hook is None:
        return False
    try:
        run_hook(hook, ctx)
    except HookFailed as exc:
        raise HookFailed(f"{failure}: {exc}") from None
    return True


def _fatal_extensions(cfg: Workspace, hook: str, call: HookCall) -> bool:
    """Run the extensions of a hook whose failure fails the setup (beforeAll, beforeEach), with AgentV 5's message."""
    try:
        return extensions.run(cfg.extensions, hook, call)
    except HookFailed as exc:
        raise HookFailed(f"{hook} extension failed: {exc}") from None


def _copy(template: Path, into: Path, failure: str) -> None:
    """AgentV's resolveWorkspaceTemplate then createTempWorkspace: a template that is a file (a `.code-workspace`)
    stands for its directory; the tree is copied without any `.git`, a symlink as a link (never followed)."""
    if not template.exists():
        raise OSError(f"ENOENT: no such file or directory, stat '{template}'")  # AgentV's stat, before any copy
    try:
        _copy_tree(template if template.is_dir() else template.parent, into)
    except OSError as exc:
        raise OSError(f"{failure}: {exc}" if failure else str(exc)) from None


def _copy_tree(src: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for entry in os.scandir(src):
        if entry.name == ".git":
            continue
        target = dest / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            _copy_tree(Path(entry.path), target)
        elif entry.is_file():
            shutil.copy2(entry.path, target)


def _materialize(cfg: Workspace, path: Path, eval_dir: Path, prefix: str) -> None:
    try:
        for repo in cfg.repos or ():
            git.materialize(repo, path, eval_dir)
    except git.GitFailed as exc:
        raise git.GitFailed(f"{prefix}{exc}") from None


def _preflight(cfg: Workspace) -> None:
    """AgentV's runPreflightChecks: every required command on PATH and Python module importable."""
    missing = [f"command: {c}" for c in cfg.env_commands if shutil.which(c) is None]
    for module in cfg.env_modules:
        check = [
            shutil.which("python3") or sys.executable,
            "-c",
            "import importlib, sys; importlib.import_module(sys.argv[1])",
            module,
        ]
        if subprocess.run(check, capture_output=True, timeout=60, stdin=subprocess.DEVNULL).returncode != 0:
            missing.append(f"python module: {module}")
    if missing:
        listed = "\n".join(f"  • {m}" for m in missing)
        raise OSError(
            f"Preflight checks failed — missing dependencies:\n{listed}\n\nInstall the missing dependencies before running this eval."
        )


def _remove(root: Path) -> None:
    """The workspaces' directory removed, read-only directories (a hook's chmod) included; links are not followed."""
    for directory, _dirs, _files in os.walk(root):
        os.chmod(directory, 0o700)
    trees.remove(root, ignore_errors=True)
