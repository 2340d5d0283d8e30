"""The scope guard's record of a mutation under way, on disk before the mutator starts.

The guard's manifest lives in the daemon's memory; a daemon killed during a
mutation (kill -9, a power cut) took it along, and the mutator's writes outside
the artifact (a planted `.git/hooks/post-commit`, a `.git/config` alias) stayed
unseen. So before each mutation the guard writes down here, in its folder under
git's (autoresearch.optimizer.experiment.vault: no `git clean -x` reaches it),
what it guards (its scope), the manifest it compares with, and the run
directory the changes are saved under; its backups are on disk beside it
(autoresearch.optimizer.guard.backups). A start that finds it armed finishes
that undo first.

The file is a log, one JSON value a line, so that arming costs what changed
since the last arm, not the whole manifest (which grows by a result-cache
entry a cycle): the scope and the whole manifest once, then per arm the
entries that changed (`["m" or "n", path, entry or null]`: the manifest, or
the paths with a `.git` component inside a directory artifact; `["c", folder,
count or null]`: a result-cache folder's count; `["l", log, [inode, size, digest] or null]`: a
result-cache log as settled) and `{"arm": run_dir, "mark":
ns}` (the cache's mark) in one synced append; `{"disarm": true}` once the
mutation's changes are undone. It is armed when its last whole line is an arm
(a kill during an append leaves a torn line, and the arm that would follow it
unwritten: the mutator never started). It is written whole again, replacing
the old one, when the appended entries outweigh the whole, when this guard
has not written it yet, or when it is not as this guard left it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoresearch.optimizer.guard.manifest import Entry, as_left
from autoresearch.plumbing import atomic
from autoresearch.plumbing.errors import IntegrityError

NAME = "guard.jsonl"
LEGACY = "mutation.json"  # the whole record, as versions before the log wrote it
TAIL = 1 << 16  # an arm line is shorter: its run directory's path


@dataclass(frozen=True)
class Books:
    """What the guard compares with: its manifest, the `.git` paths inside a directory artifact, and the
    result cache's folders' counts with their mark (autoresearch.optimizer.guard.cachefolders)."""

    manifest: dict[str, Entry]
    nested: dict[str, Entry]
    counts: dict[str, int]
    mark: int
    logs: dict[str, tuple[int, int, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Record:
    roots: tuple[str, ...]
    excluded: frozenset[str]
    objects: str
    run_dir: Path
    books: Books
    cache: str = ""  # the result cache's root: its entries are removed, not put back (reach.Scope.disposable)


def _entry(entry: Entry | None) -> list[object] | None:
    return None if entry is None else [entry.kind, entry.mode, entry.oid, entry.size, list(entry.sig), entry.racy]


def _loaded(row: list[Any]) -> Entry:  # a journal line read back, as JSON
    kind, mode, oid, size, sig, racy = row
    return Entry(kind, mode, oid, size, tuple(sig), racy)


def _row(books: Books, book: str, path: str) -> object:
    """What a journal line says `path` is now in `book` (null: not there)."""
    if book == "c":
        return books.counts.get(path)
    if book == "l":
        log = books.logs.get(path)
        return None if log is None else list(log)
    return _entry((books.manifest if book == "m" else books.nested).get(path))


def _line(value: object) -> bytes:
    """One line; paths that are not UTF-8 survive as JSON escapes."""
    return json.dumps(value).encode("ascii") + b"\n"


class Journal:
    """The guard's writer of the log: where the file stands as it left it, so that an arm appends."""

    def __init__(self, folder: Path):
        self.path = folder / NAME
        self.left: tuple[int, int] | None = None  # (inode, size) after this guard's last write
        self.whole = 0  # the size of the last whole write

    def arm(self, record: Record, changed: Iterable[tuple[str, str]]) -> None:
        """On disk (synced) before the mutation starts: `changed` names the entries of `record` that moved
        since the last arm, as ("m", "n", "c" or "l", path)."""
        books = record.books
        arm = _line({"arm": str(record.run_dir), "mark": books.mark})
        if self.left is not None and as_left(self.path, self.left):
            data = b"".join(_line([book, path, _row(books, book, path)]) for book, path in changed) + arm
            if self.left[1] + len(data) <= 2 * self.whole:
                self._append(data, durable=True)
                return
        self._write_whole(record, arm)

    def disarm(self) -> None:
        """After the mutation's changes are undone: nothing is left for a start to finish."""
        if self.left is not None and as_left(self.path, self.left):
            self._append(_line({"disarm": True}), durable=False)
        else:
            clear(self.path.parent)

    def _append(self, data: bytes, durable: bool) -> None:
        self.left = None  # until the bytes are all there
        with open(self.path, "ab") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
            st = os.fstat(f.fileno())
        self.left = (st.st_ino, st.st_size)

    def _write_whole(self, record: Record, arm: bytes) -> None:
        scope = {
            "roots": list(record.roots),
            "excluded": sorted(record.excluded),
            "objects": record.objects,
            "cache": record.cache,
        }
        books = {
            "manifest": {path: _entry(e) for path, e in record.books.manifest.items()},
            "nested": {path: _entry(e) for path, e in record.books.nested.items()},
            "counts": record.books.counts,
            "logs": {path: list(log) for path, log in record.books.logs.items()},
        }
        data = _line(scope) + _line(books) + arm
        self.left = None
        atomic.write_bytes(self.path, data)
        st = os.stat(self.path)
        self.left, self.whole = (st.st_ino, st.st_size), st.st_size


def armed(folder: Path) -> bool:
    """Whether a mutation's undo is left to finish; reads the log's last line only."""
    if (folder / LEGACY).exists():
        return True
    try:
        with open(folder / NAME, "rb") as f:
            start = max(0, os.fstat(f.fileno()).st_size - TAIL)
            f.seek(start)
            tail = f.read()
    except FileNotFoundError:
        return False
    lines = tail.split(b"\n")[:-1]  # whole lines only
    return len(lines) > (0 if start == 0 else 1) and _is_arm(lines[-1])  # else its start may be cut


def _is_arm(line: bytes) -> bool:
    return line.startswith(b'{"arm": ')


def read(folder: Path) -> Record | None:
    """The record of a mutation whose undo never finished, or None. A whole line that cannot be read was
    damaged by someone: exit 50, naming the file."""
    path = folder / LEGACY if (folder / LEGACY).exists() else folder / NAME
    try:
        data = path.read_bytes()
        return _legacy(data) if path.name == LEGACY else _replayed(data)
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise IntegrityError(
            f"{path}: the scope guard's record of an interrupted mutation is damaged ({exc.__class__.__name__}); "
            "check your checkout for changes outside the artifact, then move it away"
        ) from None


def _replayed(data: bytes) -> Record | None:
    """The scope and the manifest as of the last arm, if no disarm followed it; a torn last line is left
    out (a kill cut its append short, so the arm after it was never written)."""
    lines = data.split(b"\n")[:-1]
    if not lines or not _is_arm(lines[-1]):
        return None
    scope, whole = json.loads(lines[0]), json.loads(lines[1])
    manifest = {path: _loaded(row) for path, row in whole["manifest"].items()}
    nested = {path: _loaded(row) for path, row in whole["nested"].items()}
    counts: dict[str, int] = {path: int(n) for path, n in whole["counts"].items()}
    logs = {path: _settled(log) for path, log in whole.get("logs", {}).items()}
    tables: dict[str, dict[str, Any]] = {"m": manifest, "n": nested, "c": counts, "l": logs}
    for line in lines[2:-1]:
        value = json.loads(line)
        if isinstance(value, list):
            book, path, row = value
            target = tables[book]
            target.pop(path, None)
            if row is not None:
                target[path] = int(row) if book == "c" else _settled(row) if book == "l" else _loaded(row)
    arm = json.loads(lines[-1])
    roots, excluded = tuple(scope["roots"]), frozenset(scope["excluded"])
    books = Books(manifest, nested, counts, int(arm["mark"]), logs)
    return Record(roots, excluded, scope["objects"], Path(arm["arm"]), books, str(scope["cache"]))


def _settled(row: list[Any]) -> tuple[int, int, str]:
    inode, size, digest = row
    return int(inode), int(size), str(digest)


def _legacy(data: bytes) -> Record:
    """A record an older version wrote whole before its mutation (a kill, then an upgrade). It held the
    cache's entries in its manifest (the guard leaves them out): they are left to their signatures
    (autoresearch.runs.cache), with a mark no ctime reaches."""
    record = json.loads(data)
    manifest = {path: _loaded(row) for path, row in record["manifest"].items()}
    nested = {path: _loaded(row) for path, row in record["nested"].items()}
    books = Books(manifest, nested, {}, 1 << 63)
    roots, excluded, objects = tuple(record["roots"]), frozenset(record["excluded"]), record["objects"]
    return Record(roots, excluded, objects, Path(record["run_dir"]), books, str(record.get("cache", "")))


def clear(folder: Path) -> None:
    for name in (NAME, LEGACY):
        try:
            os.unlink(folder / name)
        except FileNotFoundError:
            pass
