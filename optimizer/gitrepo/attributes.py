"""Whether an attribute would make git convert the artifact as it writes it (autoresearch.optimizer.gitrepo.
direct asks at every KEEP and DROP), kept from one cycle to the next while nothing it is read from changed.

libgit2's answer for five attribute names is about 100-200 us a cycle where a `.gitattributes` exists, and it
comes from a few files: the `.gitattributes` of the artifact's folder and of each one above, the
repository's `info/attributes`, the user's, `core.attributesFile`, the system's, and the index (libgit2
reads a folder's `.gitattributes` from the index when the file is not in the tree). It is kept with the
signature of each (gitconfig.signature: inode, size, modification and change times, kind; or absent) and
asked again when one differs; not kept when one changed within the last second (its times could not show a
later write in the same clock tick), as after a KEEP, which writes the index.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

import pygit2
from pygit2.enums import ConfigLevel

from autoresearch.optimizer.gitrepo import gitconfig

_kept: dict[tuple[str, str, str | None], tuple[tuple[str, ...], gitconfig.Signature, bool]] = {}
_REMEMBERED = 64  # the candidates' worktrees come and go


def converts(
    repo: pygit2.Repository, root: Path, common: Path, artifact: str, named: str | None, asks: Callable[[], bool]
) -> bool:
    """`asks()` (libgit2's answer for the artifact at `root`, under `repo` whose common git folder is
    `common`, `named` the `core.attributesFile`), or False without asking when no attributes file is there;
    as last found while none of the files has changed (see the module)."""
    files = _files(repo.path, root, common, artifact, named)
    if not any(os.path.lexists(file) for file in files[:-1]):  # the index alone names none
        return False
    key, signature = (repo.path, artifact, named), gitconfig.signature(files)
    kept = _kept.get(key)
    if kept is not None and signature is not None and (kept[0], kept[1]) == (files, signature):
        return kept[2]
    found = asks()
    if len(_kept) >= _REMEMBERED:
        _kept.clear()
    if signature is None:
        _kept.pop(key, None)
    else:
        _kept[key] = (files, signature, found)
    return found


def _files(git_dir: str, root: Path, common: Path, artifact: str, named: str | None) -> tuple[str, ...]:
    """The files the answer is read from, the index last."""
    system = pygit2.settings.search_path[ConfigLevel.SYSTEM]
    named = str(Path(named).expanduser()) if named else None  # (as $HOME is now)
    return _listed(git_dir, root, common, artifact, named, gitconfig.users_git_file("attributes"), system)


@functools.lru_cache(maxsize=16)
def _listed(
    git_dir: str, root: Path, common: Path, artifact: str, named: str | None, users: Path, system: str
) -> tuple[str, ...]:
    """`_files`, made once for each place the files can be (a path made is some microseconds a name)."""
    files = [os.path.join(root, folder, ".gitattributes") for folder in Path(artifact).parents]
    files += [os.path.join(common, "info", "attributes"), str(users)]
    files += [named] if named else []
    files += [os.path.join(folder, "gitattributes") for folder in system.split(os.pathsep) if folder]
    return (*files, os.path.join(git_dir, "index"))
