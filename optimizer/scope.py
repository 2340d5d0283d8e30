"""The mutator's scope check: everything outside the artifact must look exactly as before.

A snapshot records, for every path outside the artifact that git sees as
changed or untracked, its status code and the blob of its content (written
into the object store, so a clobbered file of the user's can be put back
byte for byte).
"""

from __future__ import annotations

from pathlib import Path

from optimizer.workspace import Workspace

DELETED = "-"
Snapshot = dict[str, tuple[str, str]]  # path -> (porcelain XY, blob id or DELETED)


def snapshot(ws: Workspace) -> Snapshot:
    entries = _status(ws)
    outside = {path: code for path, code in entries.items() if not _inside(ws.artifact, path)}
    present = [p for p in outside if (ws.root / p).is_file()]
    blobs = dict(zip(present, ws.git("hash-object", "-w", "--", *present).split())) if present else {}
    return {path: (code, blobs.get(path, DELETED)) for path, code in outside.items()}


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
                target.write_bytes(ws.repo.odb.stream(bytes.fromhex(blob)).read())
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


def _status(ws: Workspace) -> dict[str, str]:
    raw = ws.git("status", "--porcelain=v1", "-z", "--untracked-files=all")
    parts = raw.split("\0")
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


def _inside(artifact: str, path: str) -> bool:
    return path == artifact or path.startswith(artifact.rstrip("/") + "/")
