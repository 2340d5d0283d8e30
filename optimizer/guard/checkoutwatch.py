"""The sandboxed mutator's throwaway checkout watched by inotify, so that its check after the mutation asks
git's status only when something but the artifact moved.

The check (autoresearch.optimizer.cycle.mutate.check_worktree) read the checkout's whole status every cycle,
libgit2 opened anew: most of the check's time. The put-back leaves the checkout as a fresh one would be
(autoresearch.optimizer.gitrepo.throwaway), so once the mutator has run, inotify names everything it
touched there and in git's folder for it (see autoresearch.optimizer.guard.fswatch). When that is the
artifact alone, a file still a plain file with no other name (a hard link would let a write through it
change a file that is never named), the status could only say the artifact changed, and nothing is read;
anything else, an overflow, a watch lost or not to be had, and git's status is read as before.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pygit2

from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard.fswatch import Unavailable, Watcher
from autoresearch.plumbing.errors import InvalidInput


class CheckoutWatch:
    """Owned by the session: started before each sandboxed mutation, asked once after it."""

    def __init__(self, sentinel_dir: Path):
        self.sentinel_dir = sentinel_dir
        self.watcher: Watcher | None = None
        self.watched: tuple[str, str] | None = None  # (the checkout, git's folder for it)
        self.armed = False  # the last start drained a complete watch: what follows is the mutation's
        self.unavailable = bool(os.environ.get("AUTORESEARCH_GUARD_POLL"))

    def start(self, ws: Workspace) -> None:
        """Before the mutator, after the put-back (whose writes are read and forgotten here)."""
        self.armed = False
        if self.unavailable:
            return
        try:  # the guard's window is open: nothing here may end the mutation before it starts
            where = (str(ws.root), ws.lib.path.rstrip(os.sep))
            if self.watcher is None or self.watched != where:
                self.close()
                try:
                    self.watcher = Watcher(list(where), lambda _: False, str(self.sentinel_dir))
                except Unavailable:
                    self.unavailable = True  # (the scope guard's watch, made before, keeps what the limit allows)
                    return
                self.watched = where
            self.armed = self.watcher.forget()  # the put-back's writes, this process's own
        except (OSError, pygit2.GitError, InvalidInput):  # git's status says, this time (a broken .git, say)
            self.close()

    def artifact_alone(self, ws: Workspace) -> dict[str, str] | None:
        """After the mutator: what `everything_changed(ws)` would say when inotify named the artifact alone,
        or nothing ({}: nothing changed); None when git's status must say."""
        watcher, self.armed = self.watcher if self.armed else None, False
        if watcher is None or ws.mode != "file" or self.watched is None or self.watched[0] != str(ws.root):
            return None
        named = watcher.changed()
        artifact = str(ws.artifact_path)
        if named is None or not named <= {artifact}:
            return None
        if not named:
            return {}
        try:
            found = os.lstat(artifact)
        except OSError:
            return None
        if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
            return None
        return {ws.artifact: " M"}  # (unchanged bytes rewritten: the artifact's own check says "no change")

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
        self.watcher, self.watched, self.armed = None, None, False
