"""The sandboxed mutator's throwaway checkout, kept from cycle to cycle and put back to HEAD in-process.

Made anew and removed every cycle, it cost a `mkdir`, five writes, a checkout and an index, then some
sixteen unlinks: a large part of the loop's own time (bench/loop_overhead.py). It is kept only when it
provably holds what a fresh one would, but for the artifact:

- after it is made or put back, every path under it and under git's folder for it is recorded (kind,
  permissions, inode; a file's size, modification and change times), and a stamp is touched: a file whose
  change time is not strictly before the stamp's ("racily clean", as git says) is recorded by its content
  too;
- before the next cycle the whole of both is walked again: a path added or gone, or any recorded field
  changed (writing a file moves its change time, which no process sets back), or a racily clean entry whose
  content changed, anywhere but under the artifact, and the checkout is removed and made anew;
- so is it when HEAD's tree differs from the recorded commit's outside the artifact, or when libgit2 would
  not check it out as git does (autoresearch.optimizer.gitrepo.linked);
- otherwise the artifact's paths are removed and written again from HEAD's tree by libgit2; after a KEEP
  (HEAD moved) HEAD is written and their index entries updated, after a DROP the index is left as it was
  (writing it was half of the put-back's time): its entries still name HEAD's blobs, and only the
  artifact's cached times are stale, which makes git compare its content with the blob, not trust them.

So a file, a link, a folder or a hook a mutator leaves, a `.git` file it edits or replaces, a mode it
changes, all make the next cycle's checkout a fresh one.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

import pygit2
from pygit2.enums import CheckoutStrategy

from autoresearch.optimizer.gitrepo import candidates, linked
from autoresearch.optimizer.gitrepo.handles import release, with_repository
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import trees

NAME = "sandboxed"  # the cycle folder of the throwaway checkout: candidates/sandboxed/0

# (kind and permissions, inode, size, modification time, change time) of a path (a folder's: the first two)
Entry = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class _Record:
    ws: Workspace
    admin: Path
    commit: str
    entries: dict[str, Entry]  # by path: "w/<relative>" in the checkout, "a/<relative>" in git's folder
    digests: dict[str, str]  # the racily clean files' contents


class Throwaway:
    """The run's throwaway checkout (one at a time: the mutation is sequential under the sandbox)."""

    def __init__(self, main: Workspace, meta: Path) -> None:
        self.main, self.meta = main, meta
        self._kept: _Record | None = None

    def take(self) -> Workspace:
        """A checkout of HEAD, as fresh as a new one (see the module's docstring)."""
        head = self.main.head()
        kept, self._kept = self._kept, None
        if kept is not None:
            release(kept.ws)  # the record made below has a workspace of its own
        if kept is not None and (repo := self._put_back(kept, head)) is not None:
            self._kept = _record(with_repository(kept.ws, repo), kept.admin, head)
            return self._kept.ws
        self.drop()
        ws = candidates.make(self.main, self.meta, NAME, 1)[0]
        admin = linked.admin_of(self.main, ws.root)
        if admin is not None and linked.plain(self.main, head):
            self._kept = _record(replace(ws), admin, head)  # a workspace of its own, as the put-back's
        return ws

    def drop(self) -> None:
        """Remove the checkout and git's record of it (at the end of a run, or to make it anew)."""
        if self._kept is not None:
            release(self._kept.ws)
        self._kept = None
        candidates.clear(self.main, self.meta, NAME)

    def _put_back(self, kept: _Record, head: str) -> pygit2.Repository | None:
        """The checkout put back to `head`, and the repository that did it, kept open as the cycle's
        workspace's (opening it again cost the configuration files and git's folder read anew); None when
        the checkout must be made anew."""
        ws = kept.ws
        if not linked.plain(self.main, head) or not _only_artifact(self.main.lib, kept.commit, head, ws.artifact):
            return None
        if not _unchanged_but_the_artifact(kept, ws):
            return None
        target = ws.root / ws.artifact
        if target.is_dir() and not target.is_symlink():
            trees.remove(target)
        elif os.path.lexists(target):
            target.unlink()
        repo = None
        try:
            repo = pygit2.Repository(str(ws.root))
            if head != kept.commit:
                (kept.admin / "HEAD").write_text(head + "\n", encoding="utf-8")
            tree = repo[head].peel(pygit2.Tree)
            strategy = CheckoutStrategy.FORCE | (CheckoutStrategy.DONT_UPDATE_INDEX if head == kept.commit else 0)
            repo.checkout_tree(tree, strategy=strategy, paths=[ws.artifact])  # type: ignore[no-untyped-call]
        except (pygit2.GitError, OSError):
            if repo is not None:
                repo.free()
            return None
        return repo


def _only_artifact(repo: pygit2.Repository, old: str, new: str, artifact: str) -> bool:
    """HEAD's tree at `new` is the one at `old` outside the artifact."""
    if old == new:
        return True
    diff = repo[old].peel(pygit2.Tree).diff_to_tree(repo[new].peel(pygit2.Tree))
    for delta in diff.deltas:
        for path in (delta.old_file.path, delta.new_file.path):
            if not (path == artifact or path.startswith(artifact + "/")):
                return False
    return True


def _unchanged_but_the_artifact(kept: _Record, ws: Workspace) -> bool:
    """Every path under the checkout and git's folder for it, but the artifact's, as recorded."""
    now = _walk(ws.root, kept.admin)
    artifact = "w/" + ws.artifact
    for path in now.keys() | kept.entries.keys():
        if path == artifact or path.startswith(artifact + "/"):
            continue
        if now.get(path) != kept.entries.get(path):
            return False
        digest = kept.digests.get(path)
        if digest is not None and digest != _digest(ws.root, kept.admin, path):
            return False
    return True


def _record(ws: Workspace, admin: Path, commit: str) -> _Record:
    entries = _walk(ws.root, admin)
    os.utime(ws.root.parent)  # the stamp: its folder's change time is now the file system's "now"
    now = os.stat(ws.root.parent).st_ctime_ns
    digests = {
        path: _digest(ws.root, admin, path)
        for path, entry in entries.items()
        if entry[4] >= now and stat.S_ISREG(entry[0])
    }
    return _Record(ws, admin, commit, entries, digests)


def _walk(root: Path, admin: Path) -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for prefix, top in (("w", root), ("a", admin)):
        stack = [(str(top), prefix)]
        while stack:
            folder, under = stack.pop()
            for entry in os.scandir(folder):
                st = entry.stat(follow_symlinks=False)
                key = f"{under}/{entry.name}"
                if stat.S_ISDIR(st.st_mode):  # what it holds is walked: its own times are not git's
                    found[key] = (st.st_mode, st.st_ino, 0, 0, 0)
                    stack.append((entry.path, key))
                else:
                    found[key] = (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return found


def _digest(root: Path, admin: Path, path: str) -> str:
    top = root if path.startswith("w/") else admin
    try:
        return hashlib.sha256((top / path[2:]).read_bytes()).hexdigest()
    except OSError:
        return ""
