"""The experiment's own records that later decisions trust, kept out of a mutator's reach.

The scope guard leaves the results directory out (the daemon writes its log, its
state and the cycle's run directory while the mutator runs). Some of what lies
there is read back to decide, though: iterations.jsonl (the best, its run
directory, the spend), holdout.json (the split), the held-out results, and the
baseline run's result files (what every candidate is compared with once the
experiment is resumed, the next night). A command mutator that lowered the
baseline's scores there got a worse candidate kept the next night. So their
bytes are read into the daemon's memory before each mutation and compared after
it; whatever changed is moved aside (nothing is lost), put back, and makes the
candidate out of scope.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Watched:
    """Single files, and folders whose files matching `pattern` count (new ones included), but those under
    `busy`: where the daemon itself writes while the mutators run (the held-out results of the cycle
    evaluated meanwhile, when mutations overlap it), which no later decision reads back from disk."""

    files: tuple[Path, ...]
    folders: tuple[tuple[Path, str], ...]
    busy: tuple[Path, ...] = ()

    def current(self) -> dict[Path, bytes | None]:
        found: dict[Path, bytes | None] = {path: _read(path) for path in self.files}
        for folder, pattern in self.folders:
            if folder.is_dir() and not folder.is_symlink():
                found |= {path: _read(path) for path in folder.rglob(pattern) if not self._busy(path)}
        return found

    def _busy(self, path: Path) -> bool:
        return any(path.is_relative_to(place) for place in self.busy)


@dataclass(frozen=True)
class Snapshot:
    watched: Watched
    before: dict[Path, bytes | None]


def take(watched: Watched) -> Snapshot:
    return Snapshot(watched, watched.current())


def restore(snapshot: Snapshot, aside: Path, base: Path) -> list[Path]:
    """Put every changed record back; what the mutation left there is moved under `aside` (at its path
    relative to `base`). Returns the changed paths."""
    now = snapshot.watched.current()
    changed = sorted(p for p in {*snapshot.before, *now} if snapshot.before.get(p) != now.get(p))
    for path in changed:
        if os.path.lexists(path):
            copy = aside / path.relative_to(base)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(path), copy)
        data = snapshot.before.get(path)
        if data is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".autoresearch-restore")
            tmp.write_bytes(data)
            os.replace(tmp, path)
    return changed


def _read(path: Path) -> bytes | None:
    """A regular file's bytes; anything else there (a symlink, a folder) reads as a change, never as its target's."""
    if path.is_symlink():
        return b"\0symlink:" + os.fsencode(os.readlink(path))
    if path.is_dir():
        return b"\0folder"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
