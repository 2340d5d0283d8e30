"""The working tree's status as `git status --porcelain` gives it (XY codes by path), read by libgit2.

In-process, because the scope check and the candidates' checks ask every cycle and a git process was most of
their time; by `git status` itself where libgit2 cannot read the index (a split or sparse one) or would answer
otherwise (a tracked file matching an ignore rule).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

import pygit2
from pygit2.enums import DeltaStatus, RepositoryOpenFlag

from autoresearch.optimizer.gitrepo import gitconfig, indexflags
from autoresearch.optimizer.gitrepo.gitconfig import redirected, users_git_file
from autoresearch.optimizer.gitrepo.handles import opened
from autoresearch.plumbing.errors import IntegrityError

if TYPE_CHECKING:
    from autoresearch.optimizer.gitrepo.workspace import Workspace


def status(ws: Workspace) -> dict[str, str]:
    """Every changed or untracked path of the working tree (not ignored ones) with its `git status
    --porcelain` XY code. Read by libgit2; by `git status` when libgit2 cannot read the index
    (a split or sparse index)."""
    try:
        flags = ws.lib.status(untracked_files="all")
    except pygit2.GitError:
        return _porcelain_status(ws)
    return {path: _xy(int(flag)) for path, flag in flags.items()}


_INDEX_CODES = ((1, "A"), (2, "M"), (4, "D"), (8, "R"), (16, "T"))  # pygit2.enums.FileStatus.INDEX_*
_WORKTREE_CODES = ((256, "M"), (512, "D"), (1024, "T"), (2048, "R"))  # WT_MODIFIED, WT_DELETED, ...
_UNTRACKED, _IGNORED, _CONFLICTED = 128, 16384, 32768


def _xy(flag: int) -> str:
    if flag & _CONFLICTED:
        return "UU"
    if flag == _UNTRACKED:
        return "??"
    x = next((c for bit, c in _INDEX_CODES if flag & bit), " ")
    y = next((c for bit, c in _WORKTREE_CODES if flag & bit), " ")
    return x + y


def _porcelain_status(ws: Workspace, *more: str) -> dict[str, str]:
    parts = ws.git("status", "--porcelain=v1", "-z", "--untracked-files=all", *more).split("\0")
    entries: dict[str, str] = {}
    i = 0
    while i < len(parts):
        item = parts[i]
        i += 1
        if len(item) < 4:
            continue
        code, path = item[:2], item[3:]
        entries[path] = code
        if code[0] in "RC":  # a rename's source path follows
            entries[parts[i]] = code
            i += 1
    return entries


def everything_changed(ws: Workspace) -> dict[str, str]:
    """`status`, ignored files included (`!!`), each file of an ignored folder by name: in a fresh worktree
    every one of them is new. Read by libgit2 from the worktree as it is now (its `.git` file read again, no
    search upwards), or by `git status --ignored --untracked-files=all` when libgit2 cannot read it, or
    would leave out what git names (see `_tracked_ignored`), or the worktree holds ignore rules of its
    own (a `.gitignore` changed, added or removed): the candidates' checks run every cycle, and a git
    process was most of their time."""
    try:
        with opened(ws.root, RepositoryOpenFlag.NO_SEARCH) as repo:
            _same_git_dir(ws, repo.path)
            unlooked = indexflags.unlooked(repo.path, len(str(repo.head.target)) // 2, lambda: _listing(ws))
            # libgit2 reads the usual configuration files alone: an ignore file git is told of elsewhere is git's
            asked, answer = (None, True) if redirected() else _tracked_ignored(repo, _common_dir(repo.path))
            flags = None if answer else repo.status(untracked_files="all", ignored=True)
    except pygit2.GitError:  # (a `.git` libgit2 cannot open, git may: git says which folder it reads)
        git_dir = ws.git("rev-parse", "--absolute-git-dir").strip()
        _same_git_dir(ws, git_dir)
        id_size = len(ws.git("rev-parse", "HEAD").strip()) // 2
        unlooked = indexflags.unlooked(git_dir, id_size, lambda: _listing(ws))
        return _looked_at(ws, _porcelain_status(ws, "--ignored"), unlooked)
    found = _porcelain_status(ws, "--ignored") if flags is None else _named(ws, flags)
    found = _looked_at(ws, found, unlooked)
    if any(os.path.basename(path.rstrip("/")) == ".gitignore" for path in found):
        # its rules are not HEAD's: the answer kept may not be this worktree's, nor is this one's kept
        return found if flags is None else _looked_at(ws, _porcelain_status(ws, "--ignored"), unlooked)
    if asked is not None:  # asked under HEAD's rules alone: kept for the next check
        _tracked_ignored_seen.clear()
        _tracked_ignored_seen[asked[0]] = (asked[1], answer)
    return found


def _looked_at(ws: Workspace, found: dict[str, str], unlooked: list[indexflags.Unlooked] | None) -> dict[str, str]:
    """`found`, and the files the status never looked at (autoresearch.optimizer.gitrepo.indexflags) that
    are not their index entry's blob: modified, or deleted when marked assume-unchanged (a sparse checkout's
    skip-worktree files are absent). Normally there are none; `core.ignoreStat` marks every file git writes."""
    if unlooked is None:
        raise IntegrityError("its index is in a format this check cannot read")
    for entry in unlooked:
        if entry.path in found:
            continue
        if not os.path.lexists(ws.root / entry.path):
            if entry.valid:
                found[entry.path] = " D"
        elif not _as_indexed(ws, entry):
            found[entry.path] = " M"
    return found


def _listing(ws: Workspace) -> str:
    return ws.git("ls-files", "-v", "-s", "-z")


def _as_indexed(ws: Workspace, entry: indexflags.Unlooked) -> bool:
    """The file at the entry's path is its blob: a link to the same target, or a file of the same bytes (as
    git would store them: through its filters, asked of git when the raw bytes differ)."""
    path = ws.root / entry.path
    link = stat.S_ISLNK(os.lstat(path).st_mode)
    if link != (stat.S_IFMT(entry.mode) == stat.S_IFLNK):
        return False
    if link:
        return pygit2.hash(os.fsencode(os.readlink(path))).raw == entry.oid
    if not path.is_file():  # a folder, a FIFO, where the file was
        return False
    if pygit2.hashfile(str(path)).raw == entry.oid:
        return True
    try:
        return ws.git("hash-object", "--path", entry.path, str(path)).strip() == entry.oid.hex()
    except IntegrityError:
        return False


def _same_git_dir(ws: Workspace, git_dir: str) -> None:
    """The worktree's `.git` still leads to the git folder it had when it was opened: a mutator that points
    it at a repository of its own (a commit holding the files it added, an index to match) would have that
    repository's status say the artifact alone changed."""
    found = git_dir.rstrip(os.sep)
    if ws.git_dir and found != ws.git_dir and os.path.realpath(found) != os.path.realpath(ws.git_dir):
        raise IntegrityError(f"its .git leads to {found}, not to its own git folder {ws.git_dir}")


def _named(ws: Workspace, flags: dict[str, int]) -> dict[str, str]:
    found: dict[str, str] = {}
    for path, flag in flags.items():
        if flag != _IGNORED:
            found[path] = _xy(int(flag))
        elif path.endswith("/"):  # libgit2 names an ignored folder, git each file in it
            found.update(dict.fromkeys(_files_under(ws.root, path), "!!"))
        else:
            found[path] = "!!"
    return found


def _common_dir(git_dir: str) -> Path:
    """The common git folder of the repository whose git folder is `git_dir` (its `commondir` file names it in a
    linked worktree), not resolved: the kernel follows its `..` and links as `Path.resolve` would, and a
    resolve (a system call per component) was a fifth of the candidates' check a cycle."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as named:
            return Path(git_dir, named.read().strip())
    except FileNotFoundError:
        return Path(git_dir)


# the ignore files outside the worktree, with their signatures, last looked at: the HEAD commit then, and the answer
_tracked_ignored_seen: dict[tuple[object, ...], tuple[pygit2.Oid | str, bool]] = {}
_Asked = tuple[tuple[object, ...], pygit2.Oid | str]  # what an answer is kept by, and its commit


def _tracked_ignored(repo: pygit2.Repository, common: Path) -> tuple[_Asked | None, bool]:
    """Whether a tracked file matches an ignore rule (files added with `-f` in an ignored folder, or under a
    `*`): libgit2's status then leaves out the new files beside it that git names `!!`, so git must say.
    Asked again only when the ignore files outside the tree changed (each one's inode, size and times: a
    change time is never set back), or a commit since the last answer did more than change files' content
    (each tracked file asked, 30 us apiece): a KEEP that only rewrote the artifact keeps the answer. An
    answer asked now comes with what to keep it by, kept by the caller only once the worktree's status shows
    its own `.gitignore` files are HEAD's: one a mutator wrote would answer for its worktree alone."""
    excludes = [common / "info" / "exclude", users_git_file("ignore"), *gitconfig.settings(repo, common).excludes_files]
    signature = gitconfig.signature([str(f) for f in excludes])
    commit = repo.head.target
    key = signature or ()  # (by their signatures alone: the paths differ from worktree to worktree)
    seen = _tracked_ignored_seen.get(key) if signature is not None else None
    if seen is not None and (seen[0] == commit or _contents_only(repo, seen[0], commit)):
        _tracked_ignored_seen[key] = (commit, seen[1])
        return None, seen[1]
    answer = any(repo.path_is_ignored(entry.path) for entry in repo.index)
    return ((key, commit) if signature is not None else None), answer


def _contents_only(repo: pygit2.Repository, before: pygit2.Oid | str, after: pygit2.Oid | str) -> bool:
    """Whether the commit `after` tracks the paths `before` does, each of the same kind, with the same
    `.gitignore` files: only other files' bytes (or modes) differ, so the same tracked files match the same
    ignore rules."""
    try:
        trees = repo[before].peel(pygit2.Tree), repo[after].peel(pygit2.Tree)
    except (KeyError, ValueError, pygit2.GitError):  # not a commit of this repository
        return False
    return all(
        delta.status == DeltaStatus.MODIFIED and os.path.basename(delta.new_file.path) != ".gitignore"
        for delta in trees[0].diff_to_tree(trees[1]).deltas
    )


def _files_under(root: Path, folder: str) -> list[str]:
    """The files and links under `folder` (repository-relative, ending in '/'), as `git status` names them:
    a folder holding a repository of its own by its name, an empty one not at all."""
    found = []
    for directory, dirs, files in os.walk(root / folder):
        relative = Path(directory).relative_to(root).as_posix()
        if ".git" in dirs or ".git" in files:
            found.append(relative + "/")
            dirs.clear()
            continue
        found += [f"{relative}/{name}" for name in files]
        found += [f"{relative}/{name}" for name in dirs if os.path.islink(os.path.join(directory, name))]
    return found
