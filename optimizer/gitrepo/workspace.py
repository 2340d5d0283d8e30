"""The user's git repository, as the daemon may touch it: the artifact path and nothing else.

Every function here stages, commits or restores only the artifact path, and
only the daemon's own commits are ever recorded as its work.

The decision's writes (a KEEP's commit, a DROP's restore of a file artifact) are made in-process where that
gives what git's command would (autoresearch.optimizer.gitrepo.direct says what is kept, and when git is
left to do it); every other write goes through the git command line (index extensions and reflogs behave
exactly as the user's git makes them), run as autoresearch.optimizer.gitrepo.gitcmd says: in their
own session, with no hooks, journaled. Reads that happen several times
a cycle go through libgit2 in-process (pygit2): object ids, sizes, the
candidate's patch here, HEAD in autoresearch.optimizer.gitrepo.heads, the status
behind the scope check in autoresearch.optimizer.gitrepo.status. A git subprocess
costs 3-4 ms, which was most of the loop's own time (bench/loop_overhead.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal

import pygit2
from pygit2.enums import DiffOption, FileMode, RepositoryOpenFlag

from autoresearch.optimizer.gitrepo import direct, gitcmd, oids, rawread
from autoresearch.optimizer.gitrepo.handles import free
from autoresearch.optimizer.gitrepo.status import status
from autoresearch.plumbing import kinds, owned
from autoresearch.plumbing.errors import IntegrityError, InvalidInput, writing
from autoresearch.plumbing.jsontypes import JSONObject


@dataclass(frozen=True)
class Workspace:
    root: Path
    artifact: str  # relative to root, posix
    mode: Literal["file", "directory"] = "file"  # fixed when the run starts
    journal: Path | None = None  # where a git write under way is recorded (see autoresearch.optimizer.gitrepo.gitcmd)
    # git's folder for it as found when it was opened (no trailing separator): a candidate's worktree is checked
    # through that one, whatever its `.git` names after a mutator ran (autoresearch.optimizer.gitrepo.status)
    git_dir: str = ""

    @cached_property
    def artifact_path(self) -> Path:
        """Made once a workspace (`root` and `artifact` never change): it was asked some fifteen times a cycle."""
        return self.root / self.artifact

    def git(self, *args: str, env: JSONObject | None = None) -> str:
        return gitcmd.run(self.root, args, env)

    def write(self, *args: str) -> str:
        """A git command that changes the repository (its index, refs or working tree)."""
        return gitcmd.run(self.root, args, journal=self.journal)

    @cached_property
    def lib(self) -> "pygit2.Repository":  # noqa: F821  (imported lazily: 0.1 s that --help and status never pay)
        try:
            return pygit2.Repository(str(self.root))
        except pygit2.GitError as exc:
            raise InvalidInput(f"{self.root}: libgit2 cannot open this repository ({exc})") from None

    def head(self) -> str:
        return str(self.lib.head.target)

    def head_is(self, commit: str) -> bool:
        """Whether HEAD is at `commit`: told by the bytes of HEAD's file in git's folder where it names that
        commit detached, as a candidate's checkout has it (git writes a detached HEAD so), else resolved by
        libgit2. The throwaway checkout's check asks it every cycle, after a KEEP with its repository's
        caches given back (autoresearch.optimizer.gitrepo.throwaway): a read of the file where libgit2 read
        the references anew."""
        if self.git_dir and rawread.whole(os.path.join(self.git_dir, "HEAD")) == f"{commit}\n".encode():
            return True
        return self.head() == commit


def open_workspace(start: Path, artifact: str) -> Workspace:
    """The repository containing `start`, checked for everything a run needs (exit 30 otherwise). Opened from
    `start` itself, not from the git folder found above it: libgit2 then takes the working tree from the
    `.git` file or link it came through, where the git folder alone (`git init --separate-git-dir`, a `.git`
    link) made the git folder's parent the working tree, whose files the run would have committed and
    restored."""
    try:
        repo = pygit2.Repository(str(start), RepositoryOpenFlag.CROSS_FS) if start.exists() else None
    except pygit2.GitError:
        repo = None
    if repo is None:
        raise InvalidInput(
            f"{start}: not inside a git repository (run `git init` and commit the artifact first)"
        ) from None
    try:
        root, git_dir = _work_tree(repo, start), repo.path.rstrip(os.sep)
        relative = _relative_artifact(root, artifact)
        kind = _kind(repo, root, relative)
    finally:
        free(repo)  # as `opened` does: a candidate's checkout is opened every cycle
    ws = Workspace(root, relative, kind, git_dir=git_dir)
    if not ws.artifact_path.exists():
        raise InvalidInput(f"artifact '{artifact}': no such file or directory in {root}")
    if not tracked(ws):
        raise InvalidInput(f"artifact '{artifact}' is not tracked by git (git add and commit it first)")
    return ws


def _kind(repo: pygit2.Repository, root: Path, relative: str) -> Literal["file", "directory"]:
    """The artifact's kind as HEAD has it, else as the disk does: a folder an eval put in a file artifact's place
    (its undo left to this start by a kill) does not make it a directory artifact, whose undo it then failed."""
    try:
        return "directory" if isinstance(repo.head.peel(pygit2.Tree)[relative], pygit2.Tree) else "file"
    except (KeyError, pygit2.GitError):
        return "directory" if (root / relative).is_dir() else "file"


def _work_tree(repo: pygit2.Repository, start: Path) -> Path:
    if repo.workdir is None:
        raise InvalidInput(f"{start}: a bare repository has no working tree to optimize")
    root = Path(repo.workdir).resolve()
    if repo.head_is_unborn:
        raise InvalidInput(f"{root}: the repository has no commits yet; commit the artifact first")
    return root


def tracked(ws: Workspace) -> bool:
    """Whether the index holds the artifact (a file) or something under it (a directory): read by libgit2,
    or `git ls-files` when libgit2 cannot read the index (a split or sparse one). In-process, because a
    throwaway checkout is opened every cycle. An index git cannot read either (a mutator wrote over it and
    its daemon was killed before the undo) is answered by HEAD's tree: the start that finishes the undo puts
    the index back, and a start with nothing to undo stops at the next command that reads it."""
    try:
        index = ws.lib.index
        index.read(False)  # as the file is now, should this repository have read it before
    except pygit2.GitError:
        try:
            return bool(ws.git("ls-files", "--", ws.artifact).strip())
        except IntegrityError:
            return ws.artifact in ws.lib.head.peel(pygit2.Tree)
    if ws.artifact in index:
        return True
    prefix = ws.artifact + "/"
    low, high = 0, len(index)
    while low < high:  # the entries are sorted by path: the first one at or after the prefix
        middle = (low + high) // 2
        if index[middle].path < prefix:
            low = middle + 1
        else:
            high = middle
    return low < len(index) and index[low].path.startswith(prefix)


def _relative_artifact(root: Path, artifact: str) -> str:
    path = (root / artifact).resolve()
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        raise InvalidInput(f"artifact '{artifact}' is outside the repository {root}") from None
    if relative in ("", ".") or relative == ".git" or relative.startswith(".git/"):
        raise InvalidInput(
            f"artifact '{artifact}' must be a file or directory inside the repository, not its root or .git"
        )
    return relative


def inside(ws: Workspace, path: str) -> bool:
    """Whether a repository-relative path is the artifact or lies under it."""
    return path == ws.artifact or path.startswith(ws.artifact.rstrip("/") + "/")


def artifact_changes(ws: Workspace) -> list[str]:
    """`XY path` for each changed or untracked path of the artifact."""
    return [f"{code} {path}" for path, code in sorted(status(ws).items()) if inside(ws, path)]


def artifact_modified(ws: Workspace, head: str | None = None) -> bool:
    """Whether the artifact differs from HEAD (`head`: the commit the caller has just read HEAD at, so that
    it is not read again). A file is compared by its blob id; one that is no regular file (a link, a folder,
    gone) differs, told by one lstat where `is_file` and `is_symlink` made two calls."""
    if ws.mode == "directory":
        return bool(artifact_changes(ws))
    path = ws.artifact_path
    if not kinds.plain_file(path, strict=True):
        return True
    return blob_id(path) != head_entry(ws, head).id


def artifact_present(ws: Workspace) -> bool:
    """Whether the artifact is still there as what it was when the run started (a file, or a directory)."""
    path = ws.artifact_path
    return path.is_dir() if ws.mode == "directory" else path.is_file()


def link_out(ws: Workspace) -> str | None:
    """The first symlink of the artifact (itself, or an entry of a directory artifact) that leads out of
    it, repository-relative; None when there is none. Such a candidate would be scored, committed and
    later mutated through the link: on a file outside the artifact, or outside the repository. A link
    committed at HEAD as it is (the user's own) is no candidate's doing."""
    top = str(ws.artifact_path)
    if os.path.islink(top):
        return ws.artifact
    if ws.mode == "file":  # a file has no entries (one a directory now is no file: `artifact_present`)
        return None
    for directory, dirs, files in os.walk(top):
        for name in (*dirs, *files):
            path = os.path.join(directory, name)
            target = os.path.realpath(path)
            if os.path.islink(path) and not (target == top or target.startswith(top + os.sep)):
                relative = os.path.relpath(path, ws.root)
                if not _committed_link(ws, relative, os.fsencode(os.readlink(path))):
                    return relative
    return None


def _committed_link(ws: Workspace, relative: str, target: bytes) -> bool:
    try:
        entry = ws.lib.revparse_single("HEAD").tree[relative]
    except KeyError:
        return False
    return entry.filemode == 0o120000 and ws.lib[entry.id].read_raw() == target  # a link's blob: its target


def blob_id(path: Path) -> str:
    """The object id git gives a file's bytes, computed in-process (a clean/smudge filter could make
    git's differ; that only ever reads as "changed", never the other way round)."""
    return blob_of(path.read_bytes())


def blob_of(data: bytes) -> str:
    """The object id git gives these bytes as a file's."""
    return oids.blob(data).hex()


def artifact_bytes(ws: Workspace) -> bytes | None:
    """A file artifact's bytes (None for a directory), read once where a cycle takes its size and its key."""
    return ws.artifact_path.read_bytes() if ws.mode == "file" else None


def artifact_id(ws: Workspace, rev: str = "HEAD") -> str:
    """The object id of the artifact at a revision (`git rev-parse <rev>:<artifact>`): equal ids mean equal content."""
    if rev == "HEAD":
        return head_entry(ws).id
    return str(ws.lib.revparse_single(f"{rev}:{ws.artifact}").id)


@dataclass(frozen=True)
class Entry:
    """The artifact's entry in a commit's tree."""

    id: str
    filemode: int
    tree: bool  # a directory; a file (or a link) otherwise


_ENTRIES: dict[tuple[str, str], Entry] = {}
"""Entries read, by (commit id, artifact path). A commit and its tree never change (their ids are hashes of
their bytes), so an entry held here is never stale: HEAD's ref is still read every time, only the commit's and
the tree's objects are not read again (`HEAD:<artifact>` was resolved five times a cycle, and libgit2 read the
objects of each new commit, and of each newly opened throwaway checkout, from disk)."""
_KEPT_ENTRIES = 64


def head_entry(ws: Workspace, head: str | None = None) -> Entry:
    """The artifact's entry at HEAD (or at `head`, the commit the caller has just read HEAD at); KeyError when
    HEAD's tree has no artifact, as `git rev-parse HEAD:<artifact>` fails."""
    commit = head or ws.head()
    entry = _ENTRIES.get((commit, ws.artifact))
    if entry is None:
        item = ws.lib[commit].peel(pygit2.Commit).tree[ws.artifact]
        entry = _remember(commit, ws.artifact, Entry(str(item.id), item.filemode, isinstance(item, pygit2.Tree)))
    return entry


def _remember(commit: str, artifact: str, entry: Entry) -> Entry:
    if len(_ENTRIES) >= _KEPT_ENTRIES:
        _ENTRIES.clear()
    _ENTRIES[(commit, artifact)] = entry
    return entry


_LINES: dict[str, int] = {}
"""A file's lines at HEAD, by its blob id (content addressed, so never stale): it was read and split twice a cycle."""


def require_clean_artifact(ws: Workspace) -> None:
    changes = artifact_changes(ws)
    if changes:
        raise InvalidInput(
            f"artifact '{ws.artifact}' has uncommitted changes ({changes[0].strip()}); commit or stash them first"
        )


def exclude(root: Path, relative: str) -> None:
    """Add a path (relative to the repository root `root`) to .git/info/exclude (once), so the results
    never dirty the tree."""
    exclude_file = Path(gitcmd.run(root, ("rev-parse", "--git-path", "info/exclude")))
    if not exclude_file.is_absolute():
        exclude_file = root / exclude_file
    entry = "/" + relative.strip("/") + "/"
    existing = exclude_file.read_text(encoding="utf-8").splitlines() if exclude_file.exists() else []
    if entry not in existing:
        exclude_file.parent.mkdir(parents=True, exist_ok=True)
        with writing(exclude_file), open(exclude_file, "a", encoding="utf-8") as f:
            f.write(("" if not existing or existing[-1] == "" else "\n") + entry + "\n")


def commit_artifact(ws: Workspace, message: str, expected: tuple[str, int] | None = None) -> str | None:
    """Commit the artifact path only; None (and no commit) when it has no changes. In-process first (which
    finds an unchanged file from the bytes it reads, and refuses a file other than the `expected` one: its blob id and permission bits), else
    asked here and left to git. A commit made in-process of the `expected` file has that blob, its mode
    the bits' (direct.commit refuses any other): its entry is known without reading the new commit and tree
    back (the next cycle's checks read them from disk, in the throwaway checkout's repository too)."""
    made = direct.commit(ws, message, expected)
    if made is direct.UNCHANGED:
        return None
    if isinstance(made, str):
        if expected is not None:
            mode = FileMode.BLOB_EXECUTABLE if expected[1] & 0o100 else FileMode.BLOB
            _remember(made, ws.artifact, Entry(expected[0], mode, False))
        return made
    if not artifact_modified(ws) or not artifact_present(ws):
        return None
    if ws.mode == "directory":  # new files must be added; a tracked file commits in one call
        ws.write("add", "-A", "--", ws.artifact)
    ws.write("commit", "--quiet", "--no-verify", "-m", message, "--only", "--", ws.artifact)
    return ws.head()


def candidate_patch(ws: Workspace) -> str:
    """The candidate's diff against HEAD, new files included, without touching the user's index.
    A file that is still a regular file of the same mode is diffed in-process (unless libgit2 cannot
    read the index it consults for attributes: a split or sparse one); git does the rest."""
    head = _same_kind_at_head(ws) if ws.mode == "file" else None
    if head is not None:
        try:
            return _file_patch(ws, head)
        except pygit2.GitError:
            pass
    if ws.mode == "file":
        return ws.git("diff", "--binary", "HEAD", "--", ws.artifact)
    with owned.temporary("autoresearch-diff-") as tmp:
        env = {**os.environ, "GIT_INDEX_FILE": str(Path(tmp) / "index")}
        ws.git("read-tree", "HEAD", env=env)
        ws.git("add", "-A", "--", ws.artifact, env=env)
        return ws.git("diff", "--cached", "--binary", "HEAD", "--", ws.artifact, env=env)


def _file_patch(ws: Workspace, head: Entry) -> str:
    blob = ws.lib[head.id].peel(pygit2.Blob)  # a file at HEAD (_same_kind_at_head)
    # the patch's lines point into `new`, which pygit2 does not keep alive as it keeps a blob: held in a
    # local until `.text` is read (freed before, its memory went to the text being written, and one patch in
    # seven came out mangled)
    new = ws.artifact_path.read_bytes()
    patch = pygit2.Patch.create_from(blob, new, ws.artifact, ws.artifact, flag=DiffOption.SHOW_BINARY)
    return (patch.text or "").removesuffix("\n")  # as git's output reads through ws.git (no change: "")


def _same_kind_at_head(ws: Workspace) -> Entry | None:
    """HEAD's entry of the artifact, when the artifact is still a regular file of the mode it has there."""
    path = ws.artifact_path
    if path.is_symlink() or not path.is_file():
        return None
    head = head_entry(ws)
    return head if head.filemode == _file_mode(path) else None


def _mode_differs(ws: Workspace) -> bool:
    """Whether a file artifact of HEAD's bytes has an executable bit HEAD's mode has not, or lacks one it has
    (a mutator's `chmod +x`): `artifact_modified` compares the bytes only, and git's checkout puts the mode back
    (with core.fileMode false it leaves it, and running it is harmless)."""
    path = ws.artifact_path
    if ws.mode != "file" or not path.is_file() or path.is_symlink():
        return False
    return _file_mode(path) != head_entry(ws).filemode


def _file_mode(path: Path) -> int:
    """The mode git records for a regular file at `path`: a program's or a plain file's."""
    return 0o100755 if os.access(path, os.X_OK) else 0o100644


def restore_artifact(ws: Workspace) -> None:
    """Put the artifact path back as it is at HEAD: modified files restored, new files removed. In-process
    first (which finds an unchanged file from the bytes it reads), else asked here and left to git."""
    done = direct.restore(ws)
    if done is direct.UNCHANGED or done is True or not (artifact_modified(ws) or _mode_differs(ws)):
        return
    ws.write("checkout", "HEAD", "--", ws.artifact)
    if ws.mode == "directory":
        ws.write("clean", "-f", "-d", "--quiet", "--", ws.artifact)


def artifact_size(ws: Workspace, rev: str | None = None, data: bytes | None = None) -> int:
    """Lines for a file artifact, bytes for a directory: the simplicity measure of the keep rule.
    Read in-process (the working tree, or HEAD's objects): no git subprocess per cycle. `data`: the
    file's bytes in the working tree, when the caller has read them (`artifact_bytes`)."""
    if data is not None:
        return len(data.splitlines())
    if rev is None:
        path = ws.artifact_path
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and ".git" not in p.parts)
        return len(path.read_bytes().splitlines())
    if rev == "HEAD":
        return _size_at_head(ws)
    entry = ws.lib.revparse_single(f"{rev}:{ws.artifact}")
    if isinstance(entry, pygit2.Tree):
        return _tree_bytes(entry)
    return len(entry.read_raw().splitlines())  # a blob's raw data is its content


def _size_at_head(ws: Workspace) -> int:
    head = head_entry(ws)
    if head.tree:
        return _tree_bytes(ws.lib[head.id].peel(pygit2.Tree))
    lines = _LINES.get(head.id)
    if lines is None:
        if len(_LINES) >= _KEPT_ENTRIES:
            _LINES.clear()
        lines = _LINES[head.id] = len(ws.lib[head.id].read_raw().splitlines())  # a blob's raw data is its content
    return lines


def _tree_bytes(tree: pygit2.Tree) -> int:
    """The bytes of the tree's files; a submodule (a commit entry) counts for nothing."""
    return sum(
        _tree_bytes(item) if isinstance(item, pygit2.Tree) else item.size
        for item in tree
        if isinstance(item, (pygit2.Tree, pygit2.Blob))
    )
