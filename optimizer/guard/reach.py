"""Where the scope guard looks, and what a change it finds there is.

The guard's roots are the repository, a worktree's own git dir in the main repository, the config, hooks
and info every worktree shares, and the result cache; left out are the artifact, the results directory,
the daemon's own output files and what other daemons write under git's common dir
(autoresearch.optimizer.guard.scope says why each is guarded).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.optimizer.guard.cachefolders import probe
from autoresearch.optimizer.guard.manifest import Entry
from autoresearch.optimizer.guard.ownoutput import own_output


@dataclass(frozen=True)
class Change:
    path: str  # absolute
    before: Entry | None  # None: the path did not exist
    after: Entry | None


@dataclass(frozen=True)
class Scope:
    """Where the guard looks: its roots, and the paths under them it leaves alone."""

    roots: tuple[str, ...]
    excluded: frozenset[str]
    objects: str  # git's object store, guarded apart (autoresearch.optimizer.guard.gitobjects)
    cache: str = ""  # the result cache's root ("": none); see `disposable`

    def skip(self, path: str) -> bool:
        if path in self.excluded:
            return True
        # a nested repository's object store (a submodule's, a vendored repo's) is as append-only as ours
        return path.endswith(_OBJECTS) and os.path.isfile(path[: -len("objects")] + "HEAD")

    def disposable(self, path: str) -> bool:
        """A result-cache entry (anything inside one of the cache's eval folders; its `key` is not one): what
        a mutation changed there is removed, never put back, so the guard keeps no copy of an entry's bytes,
        nor an entry in its manifest: only a count per folder (autoresearch.optimizer.guard.cachefolders).
        The cache can afford it: an entry that is absent is evaluated again. A night writes one a cycle, and
        a copy of each in the daemon's memory was held until the run ended."""
        if not self.cache or not path.startswith(self.cache + os.sep):
            return False
        return os.sep in path[len(self.cache) + 1 :]

    def covers(self, path: str) -> bool:
        """Whether a walk from one of the roots reaches `path` (nothing excluded on the way down). Each folder
        on the way is built from the one above it: the guard asks of every path inotify names, twice a cycle."""
        for root in self.roots:
            if path == root or path.startswith(root + os.sep):
                if self._reached(root, path[len(root) :].split(os.sep)[1:]):
                    return True
        return False

    def _reached(self, root: str, below: list[str]) -> bool:
        place = root
        if self.skip(place):
            return False
        for name in below:
            place = os.path.join(place, name)
            if self.skip(place):
                return False
        return True


def scope_of(ws: Workspace, results_dir: Path, cache_root: Path | None) -> Scope:
    root = str(ws.root)
    git_dir = os.path.realpath(ws.lib.path)
    common = os.path.realpath(os.path.join(root, ws.git("rev-parse", "--git-common-dir")))
    roots = [root]
    if not git_dir.startswith(root + os.sep):  # a worktree: its own git dir lives in the main repository
        roots.append(git_dir)
    if common != git_dir:  # what every worktree shares and that runs or configures git
        roots += [os.path.join(common, name) for name in ("config", "hooks", "info")]
    if cache_root is not None:
        roots.append(str(cache_root))
    excluded = {str(ws.artifact_path), str(results_dir), *own_output()}  # (`own_output`: `run > run.log`)
    excluded |= {os.path.join(common, *name.split("/")) for name in _SHARED_BUSY}
    cache = str(cache_root) if cache_root is not None else ""
    if cache:
        excluded.add(probe(cache))
    return Scope(tuple(roots), frozenset(excluded), os.path.join(common, "objects"), cache)


_OBJECTS = os.sep + "objects"
# under the common git dir: objects (append-only), other worktrees, the experiments' branches, and the
# experiments' own folders (autoresearch.optimizer.experiment.vault), where the daemons write
_SHARED_BUSY = (
    "objects",
    "worktrees",
    "lfs",
    "refs/heads/autoresearch",
    "logs/refs/heads/autoresearch",
    "autoresearch",
)


TOOL_CACHES = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"})


def byproduct(change: Change) -> bool:
    """A file or folder created inside a tool's cache folder (Python byte code, pytest's cache): a coding
    agent that runs the tests leaves these. Removed like any change, before the eval can read them, but
    not held against the candidate. Changing or deleting one that existed is no byproduct."""
    return change.before is None and bool(TOOL_CACHES.intersection(change.path.split(os.sep)))
