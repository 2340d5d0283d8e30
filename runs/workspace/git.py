"""The git AgentV runs in a workspace: the file-changes baseline and diff, resets, and repos cloned into it.

Every command is pinned to the workspace (`GIT_DIR`/`GIT_WORK_TREE` and the
caller's `GIT_*` dropped, a ceiling above it), runs no hooks and no
fsmonitor, never prompts, and is bounded by AgentV's 5-minute git timeout,
so no git here can reach the user's repository or wait forever. A clone's
source is handed to git after `--` and refused when it starts with `-`.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from autoresearch.runs.errors import StepFailed
from autoresearch.runs.evalfile.workspace import Repo

GIT_TIMEOUT_S = 300.0
SAFE = [
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "protocol.ext.allow=never",
]
SHORTHAND = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
FULL_SHA = re.compile(r"^[0-9a-f]{40}$", re.I)


class GitFailed(StepFailed):
    """A git command of a workspace's repository failed or timed out; the message says which."""


def _env(where: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k == "GIT_SSH_COMMAND"}
    return {
        **env,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ASKPASS": "",
        "GIT_SSH_COMMAND": "ssh -o BatchMode=yes",
        "GIT_CEILING_DIRECTORIES": str(where.parent),
    }


def git(args: list[str], cwd: Path, repo: Path | None = None, git_dir: Path | None = None) -> str:
    """`git args` in `cwd`; with `repo`, pinned to that work tree and its own `.git` (never a parent's), or to
    `git_dir` kept elsewhere."""
    pinned = ["--git-dir", str(git_dir or repo / ".git"), "--work-tree", str(repo)] if repo is not None else []
    try:
        done = subprocess.run(
            ["git", *SAFE, *pinned, *args],
            cwd=cwd,
            env=_env(repo or cwd),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=GIT_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise GitFailed(f"git {' '.join(args)} timed out after {GIT_TIMEOUT_S:g}s") from None
    except OSError as exc:
        raise GitFailed(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        output = "\n".join(t for t in (done.stderr.strip(), done.stdout.strip()) if t)
        raise GitFailed(f"git {' '.join(args)} failed with code {done.returncode}" + (f":\n{output}" if output else ""))
    return done.stdout.strip()


def baseline(workspace: Path, git_dir: Path | None = None) -> str:
    """AgentV's initializeBaseline: the workspace as it is now committed, so the diff after the target shows its edits.
    With `git_dir`, the repository is kept there, not in the workspace (a directory of the user's, used in place)."""
    if git_dir is None:
        git(["init", "-q", str(workspace)], workspace)
    else:
        git(["init", "-q", "--bare", str(git_dir)], workspace)
    git(["add", "-A"], workspace, workspace, git_dir)
    git(
        [
            "-c",
            "user.email=agentv@localhost",
            "-c",
            "user.name=agentv",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "agentv-baseline",
        ],
        workspace,
        workspace,
        git_dir,
    )
    return git(["rev-parse", "HEAD"], workspace, workspace, git_dir)


def file_changes(workspace: Path, commit: str, git_dir: Path | None = None) -> str:
    """AgentV's captureFileChanges: everything staged (nested repos first), diffed against the baseline."""
    for child in sorted(workspace.iterdir()):
        if (
            child.name not in (".git", "node_modules")
            and child.is_dir()
            and not child.is_symlink()
            and (child / ".git").is_dir()
        ):
            git(["add", "-A"], child, child)
    git(["add", "-A"], workspace, workspace, git_dir)
    return git(["diff", commit, "--submodule=diff"], workspace, workspace, git_dir)


def reset_root(workspace: Path, mode: str, commit: str | None) -> None:
    """AgentV's resetWorkspaceRoot: back to the baseline (untracked files cleaned; `strict` cleans ignored ones too)."""
    if not (workspace / ".git").exists():
        return
    git(["reset", "-q", "--hard", commit or "HEAD"], workspace, workspace)
    git(["clean", "-fdx" if mode == "strict" else "-fd"], workspace, workspace)


def clone_url(repo: str) -> str:
    """AgentV's resolveRepoCloneUrl: GitHub `org/name` shorthand becomes its https URL."""
    repo = repo.strip()
    return f"https://github.com/{repo}.git" if SHORTHAND.match(repo) else repo


def materialize(repo: Repo, workspace: Path, cwd: Path) -> None:
    """AgentV's RepoManager.materialize: clone without checkout, sparse paths, then a detached checkout of the pinned commit."""
    if not repo.repo or not repo.path:
        return
    source = clone_url(repo.repo)
    if source.startswith("-"):
        raise GitFailed("repo clone source must not start with '-'.")
    target = workspace / repo.path
    git(["clone", "-q", "--no-checkout", "--", source, str(target)], cwd)
    if repo.sparse:
        git(["sparse-checkout", "init", "--cone"], target, target)
        git(["sparse-checkout", "set", "--", *repo.sparse], target, target)
    git(["checkout", "-q", "--detach", checkout_commit(repo, target)], target, target)


def reset_repos(repos: tuple[Repo, ...], workspace: Path, mode: str) -> None:
    """AgentV's RepoManager.reset: each repo back to its pinned commit, cleaned."""
    for repo in repos:
        if repo.path and repo.repo:
            target = workspace / repo.path
            git(["reset", "-q", "--hard", checkout_commit(repo, target)], target, target)
            git(["clean", "-fdx" if mode == "strict" else "-fd"], target, target)


def checkout_commit(repo: Repo, target: Path) -> str:
    ref = repo.ref or "HEAD"
    sha = _resolve(ref, target)
    if repo.ancestor:
        try:
            return _resolve(f"{sha}~{repo.ancestor}", target)
        except GitFailed:
            raise GitFailed(f"Cannot resolve ancestor {repo.ancestor} of ref '{ref}'.") from None
    return sha


def _resolve(ref: str, target: Path) -> str:
    if not ref or ref.startswith("-") or "\0" in ref:
        raise GitFailed(f"repo checkout ref {ref!r} is not a ref")
    candidates = [ref]
    if not ref.startswith(("refs/", "origin/")) and not FULL_SHA.match(ref):
        candidates.append(f"refs/remotes/origin/{ref}")
    for candidate in candidates:
        try:
            return git(["rev-parse", "--verify", "--end-of-options", f"{candidate}^{{commit}}"], target, target)
        except GitFailed:
            continue
    raise GitFailed(f"Cannot resolve ref '{ref}' to a commit.")
