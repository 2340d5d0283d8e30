"""The mutator's scope check: everything outside the artifact must look exactly as before.

A snapshot records, for every path outside the artifact that git sees as
changed or untracked, its status code and the blob of its exact bytes
(written into the object store, unfiltered, so a clobbered file of the user's
can be put back byte for byte). Both are read in-process (libgit2): the check
runs twice a cycle.
"""

from __future__ import annotations

from pathlib import Path

from optimizer.workspace import Workspace, inside, status

DELETED = "-"
Snapshot = dict[str, tuple[str, str]]  # path -> (porcelain XY, blob id or DELETED)


def snapshot(ws: Workspace) -> Snapshot:
    outside = {path: code for path, code in status(ws).items() if not inside(ws, path)}
    return {path: (code, _blob(ws, ws.root / path)) for path, code in outside.items()}


def _blob(ws: Workspace, path: Path) -> str:
    """Hashed as a stream; stored (raw bytes: libgit2's from-disk writer would apply filters) only the
    first time these bytes are seen, so an unchanged large file is not read into memory every cycle."""
    import pygit2

    if not path.is_file():
        return DELETED
    oid = pygit2.hashfile(str(path))
    if oid not in ws.lib.odb:
        ws.lib.create_blob(path.read_bytes())
    return str(oid)


def changed_paths(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def undo(ws: Workspace, before: Snapshot, paths: list[str]) -> None:
    """Put each path back as the snapshot saw it (or as HEAD has it, when it was clean)."""
    tracked = set(ws.git("ls-files", "--", *paths).splitlines()) if paths else set()
    for path in paths:
        target = ws.root / path
        if path in before:
            code, blob = before[path]
            if blob == DELETED:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(ws.lib[blob].data)
            if code[0] in " ?":
                ws.git("reset", "--quiet", "--", path)
        elif path in tracked:
            ws.git("checkout", "HEAD", "--", path)
        else:
            _remove_untracked(ws.root, target)


def _remove_untracked(root: Path, target: Path) -> None:
    if target.is_dir() and not target.is_symlink():
        return
    target.unlink(missing_ok=True)
    parent = target.parent
    while parent != root and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent
