"""The user's git repository, as the daemon may touch it: the artifact path and nothing else.

Every function here stages, commits or restores only the artifact path, and
only the daemon's own commits are ever recorded as its work.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from optimizer.errors import IntegrityError, InvalidInput


@dataclass(frozen=True)
class Workspace:
    repo: "git.Repo"  # noqa: F821  (gitpython is imported lazily to keep --help fast)
    root: Path
    artifact: str  # relative to root, posix
    mode: str = "file"  # "file" | "directory", fixed when the run starts

    @property
    def artifact_path(self) -> Path:
        return self.root / self.artifact

    def git(self, *args: str, env: dict | None = None) -> str:
        import git

        try:
            return self.repo.git.execute(["git", *args], env=env)
        except git.GitCommandError as exc:
            raise IntegrityError(f"git {' '.join(args[:2])} failed: {' '.join(str(exc.stderr).split())}") from None

    def head(self) -> str:
        return self.repo.head.commit.hexsha


def open_workspace(start: Path, artifact: str) -> Workspace:
    """The repository containing `start`, checked for everything a run needs (exit 30 otherwise)."""
    import git

    try:
        repo = git.Repo(start, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise InvalidInput(f"{start}: not inside a git repository (run `git init` and commit the artifact first)") from None
    if repo.working_tree_dir is None:
        raise InvalidInput(f"{start}: a bare repository has no working tree to optimize")
    root = Path(repo.working_tree_dir).resolve()
    if not repo.head.is_valid():
        raise InvalidInput(f"{root}: the repository has no commits yet; commit the artifact first")
    relative = _relative_artifact(root, artifact)
    ws = Workspace(repo, root, relative, "directory" if (root / relative).is_dir() else "file")
    if not ws.artifact_path.exists():
        raise InvalidInput(f"artifact '{artifact}': no such file or directory in {root}")
    if not ws.git("ls-files", "--", relative).strip():
        raise InvalidInput(f"artifact '{artifact}' is not tracked by git (git add and commit it first)")
    return ws


def _relative_artifact(root: Path, artifact: str) -> str:
    path = (root / artifact).resolve()
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        raise InvalidInput(f"artifact '{artifact}' is outside the repository {root}") from None
    if relative in ("", ".") or relative == ".git" or relative.startswith(".git/"):
        raise InvalidInput(f"artifact '{artifact}' must be a file or directory inside the repository, not its root or .git")
    return relative


def artifact_changes(ws: Workspace) -> str:
    """`git status --porcelain` of the artifact path only (untracked files included)."""
    return ws.git("status", "--porcelain", "--untracked-files=all", "--", ws.artifact)


def artifact_modified(ws: Workspace) -> bool:
    """Whether the artifact differs from HEAD. A file is compared by its blob id in-process
    (no subprocess: this runs several times a cycle); a directory asks git."""
    if ws.mode == "directory":
        return bool(artifact_changes(ws).strip())
    path = ws.artifact_path
    if not path.is_file():
        return True
    return blob_id(path) != _head_entry(ws).hexsha


def blob_id(path: Path) -> str:
    """The object id git gives a file's bytes, computed in-process (a clean/smudge filter could make
    git's differ; that only ever reads as "changed", never the other way round)."""
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _head_entry(ws: Workspace):
    return ws.repo.head.commit.tree / ws.artifact


def require_clean_artifact(ws: Workspace) -> None:
    changes = artifact_changes(ws)
    if changes.strip():
        first = changes.strip().splitlines()[0]
        raise InvalidInput(
            f"artifact '{ws.artifact}' has uncommitted changes ({first.strip()}); commit or stash them first"
        )


def exclude(ws: Workspace, relative: str) -> None:
    """Add a path to .git/info/exclude (once), so the results never dirty the tree."""
    exclude_file = Path(ws.git("rev-parse", "--git-path", "info/exclude"))
    if not exclude_file.is_absolute():
        exclude_file = ws.root / exclude_file
    entry = "/" + relative.strip("/") + "/"
    existing = exclude_file.read_text(encoding="utf-8").splitlines() if exclude_file.exists() else []
    if entry not in existing:
        exclude_file.parent.mkdir(parents=True, exist_ok=True)
        with open(exclude_file, "a", encoding="utf-8") as f:
            f.write(("" if not existing or existing[-1] == "" else "\n") + entry + "\n")


def commit_artifact(ws: Workspace, message: str) -> str | None:
    """Commit the artifact path only; None (and no commit) when it has no changes."""
    if not artifact_modified(ws):
        return None
    if ws.mode == "directory":  # new files must be added; a tracked file commits in one call
        ws.git("add", "-A", "--", ws.artifact)
    ws.git("commit", "--quiet", "--no-verify", "-m", message, "--only", "--", ws.artifact)
    return ws.head()


def candidate_patch(ws: Workspace) -> str:
    """The candidate's diff against HEAD, new files included, without touching the user's index."""
    if ws.mode == "file":
        return ws.git("diff", "--binary", "HEAD", "--", ws.artifact)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        ws.git("read-tree", "HEAD", env=env)
        ws.git("add", "-A", "--", ws.artifact, env=env)
        return ws.git("diff", "--cached", "--binary", "HEAD", "--", ws.artifact, env=env)


def restore_artifact(ws: Workspace) -> None:
    """Put the artifact path back as it is at HEAD: modified files restored, new files removed."""
    if not artifact_modified(ws):
        return
    ws.git("checkout", "HEAD", "--", ws.artifact)
    if ws.mode == "directory":
        ws.git("clean", "-f", "-d", "--quiet", "--", ws.artifact)


def artifact_size(ws: Workspace, rev: str | None = None) -> int:
    """Lines for a file artifact, bytes for a directory: the simplicity measure of the keep rule.
    Read in-process (the working tree, or HEAD's objects): no git subprocess per cycle."""
    if rev is None:
        path = ws.artifact_path
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and ".git" not in p.parts)
        return len(path.read_bytes().splitlines())
    entry = ws.repo.commit(rev).tree / ws.artifact
    if entry.type == "tree":
        return sum(item.size for item in entry.traverse() if item.type == "blob")
    return len(entry.data_stream.read().splitlines())


def artifact_tree(ws: Workspace, rev: str) -> str:
    """The object id of the artifact at a revision: equal ids mean equal content."""
    return ws.git("rev-parse", f"{rev}:{ws.artifact}")


def is_ancestor(ws: Workspace, older: str, newer: str) -> bool:
    import git

    try:
        ws.repo.git.merge_base("--is-ancestor", older, newer)
        return True
    except git.GitCommandError:
        return False
