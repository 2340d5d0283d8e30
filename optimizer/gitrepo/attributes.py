"""Whether an attribute would make git convert the artifact as it writes it (autoresearch.optimizer.gitrepo.
direct asks at every KEEP and DROP), kept from one cycle to the next while nothing it is read from changed.

libgit2's answer for five attribute names is about 100-200 us a cycle where a `.gitattributes` exists, and it
comes from a few files: the `.gitattributes` of the artifact's folder and of each one above, the
repository's `info/attributes`, the user's, `core.attributesFile`, the system's, and the index (libgit2
reads a folder's `.gitattributes` from the index when the file is not in the tree; where no file is there and
the index has none on the artifact's path, the answer is no without asking). It is kept with the
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

from autoresearch.optimizer.gitrepo import gitconfig, rawread

_kept: dict[tuple[str, str, str | None], tuple[tuple[str, ...], gitconfig.Signature, bool]] = {}
_indexed: dict[tuple[str, str], tuple[gitconfig.Signature, bool]] = {}  # _in_index's, by (index, artifact)
_REMEMBERED = 64  # the candidates' worktrees come and go
_HIDING = (b".gitattributes\0", b"link", b"sdir")  # an attributes file's entry; a split and a sparse index's


def converts(
    repo: pygit2.Repository, root: Path, common: Path, artifact: str, named: str | None, asks: Callable[[], bool]
) -> bool:
    """`asks()` (libgit2's answer for the artifact at `root`, under `repo` whose common git folder is
    `common`, `named` the `core.attributesFile`), or False without asking when no attributes file is there
    and the index has none on the artifact's path; as last found while none of the files has changed (see
    the module)."""
    files = _files(repo.path, common, root, artifact, named)
    if not any(os.path.lexists(file) for file in files[:-1]) and not _in_index(repo, files[-1], artifact):
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


def _in_index(repo: pygit2.Repository, index: str, artifact: str) -> bool:
    """Whether the index has a `.gitattributes` on the artifact's path (deleted from the tree, or left out of
    a sparse checkout: git's commit and checkout read the index's; one at HEAD alone, removed from the index
    too, git does not read); as last found while the index is unchanged (a read is ~50 us and
    more with the repository's size)."""
    signature, kept = gitconfig.signature([index]), _indexed.get((index, artifact))
    if kept is not None and signature is not None and kept[0] == signature:
        return kept[1]
    if _named_nowhere(index):
        return False
    try:
        entries = repo.index  # (pygit2.Index(path) that fails leaves a warning for its garbage collection)
        entries.read(True)
    except pygit2.GitError:  # one libgit2 cannot read (a split index): libgit2 is asked, as before
        return True
    found = any((folder / ".gitattributes").as_posix() in entries for folder in Path(artifact).parents)
    if len(_indexed) >= _REMEMBERED:
        _indexed.clear()
    if signature is not None:
        _indexed[(index, artifact)] = (signature, found)
    return found


def _named_nowhere(index: str) -> bool:
    """Whether the index, of version 2 or 3, has no entry named `.gitattributes` in any folder: each entry's
    path is written whole there and ended by a NUL, so the bytes then hold no `.gitattributes` and a NUL. The
    index is rewritten by every KEEP and DROP, so its signature never settles in a loop: this scan of its bytes
    is a fraction of libgit2's read of it. False (libgit2 to read it) for another version, where a path is
    written as the part after the previous entry's; for a split or a sparse index (its `link` or `sdir`
    extension), whose entries are not all in these bytes; and for bytes that hold any of these words by chance."""
    data = rawread.whole(index)
    if data is None or data[:4] != b"DIRC" or data[4:8] not in (b"\0\0\0\2", b"\0\0\0\3"):
        return False
    return not any(word in data for word in _HIDING)


def _files(git_dir: str, common: Path, root: Path, artifact: str, named: str | None) -> tuple[str, ...]:
    """The files the answer is read from, the index last."""
    named = str(Path(named).expanduser()) if named else None  # (as $HOME is now)
    return _listed(git_dir, root, artifact, named, gitconfig.attribute_files(common))


@functools.lru_cache(maxsize=16)
def _listed(git_dir: str, root: Path, artifact: str, named: str | None, shared: tuple[str, ...]) -> tuple[str, ...]:
    """`_files`, made once for each place the files can be (a path made is some microseconds a name); `shared`
    the repository's, the user's and the system's (gitconfig.attribute_files)."""
    files = [os.path.join(root, folder, ".gitattributes") for folder in Path(artifact).parents]
    return (*files, *shared, *([named] if named else []), os.path.join(git_dir, "index"))
