"""The scope guard's record of a mutation under way, on disk before the mutator starts.

The guard's manifest lives in the daemon's memory; a daemon killed during a
mutation (kill -9, a power cut) took it along, and the mutator's writes outside
the artifact (a planted `.git/hooks/post-commit`, a `.git/config` alias) stayed
unseen. So before each mutation the guard writes down here, in its folder under
git's (autoresearch.optimizer.experiment.vault: no `git clean -x` reaches it),
what it guards (its scope), the manifest it compares with, and the run
directory the changes are saved under; its backups are on disk beside it
(autoresearch.optimizer.guard.backups). The file is removed once the mutation's
changes are undone. A start that finds it finishes that undo first.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoresearch.optimizer.guard.manifest import Entry
from autoresearch.plumbing import atomic
from autoresearch.plumbing.errors import IntegrityError

NAME = "mutation.json"


@dataclass(frozen=True)
class Record:
    roots: tuple[str, ...]
    excluded: frozenset[str]
    objects: str
    run_dir: Path
    manifest: dict[str, Entry]
    nested: dict[str, Entry]
    cache: str = ""  # the result cache's root: its entries are removed, not put back (scope.Scope.disposable)


def _entry(entry: Entry) -> list[object]:
    return [entry.kind, entry.mode, entry.oid, entry.size, list(entry.sig), entry.racy]


def _loaded(row: list[Any]) -> Entry:  # a journal line read back, as JSON
    kind, mode, oid, size, sig, racy = row
    return Entry(kind, mode, oid, size, tuple(sig), racy)


def write(folder: Path, record: Record) -> None:
    """On disk (synced) before the mutation starts; paths that are not UTF-8 survive as JSON escapes."""
    data = {
        "roots": list(record.roots),
        "excluded": sorted(record.excluded),
        "objects": record.objects,
        "run_dir": str(record.run_dir),
        "manifest": {path: _entry(e) for path, e in record.manifest.items()},
        "nested": {path: _entry(e) for path, e in record.nested.items()},
        "cache": record.cache,
    }
    atomic.write_text(folder / NAME, json.dumps(data))


def read(folder: Path) -> Record | None:
    """The record of a mutation whose undo never finished, or None. It is replaced whole, so one that
    cannot be read was damaged by someone: exit 50, naming it."""
    try:
        data = json.loads((folder / NAME).read_text(encoding="ascii"))
        return Record(
            tuple(data["roots"]),
            frozenset(data["excluded"]),
            data["objects"],
            Path(data["run_dir"]),
            {path: _loaded(row) for path, row in data["manifest"].items()},
            {path: _loaded(row) for path, row in data["nested"].items()},
            str(data.get("cache", "")),  # a record an older version wrote puts entries back from its copies
        )
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise IntegrityError(
            f"{folder / NAME}: the scope guard's record of an interrupted mutation is damaged ({exc.__class__.__name__}); "
            "check your checkout for changes outside the artifact, then move it away"
        ) from None


def clear(folder: Path) -> None:
    try:
        os.unlink(folder / NAME)
    except FileNotFoundError:
        pass
