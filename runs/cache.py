"""The result cache: one eval sample's rows, keyed by (eval, artifact, sample index).

Each entry is a whole index.jsonl (one row per test, with its target), so a
lookup by (eval definition, artifact content, target, test id, sample index)
is a file read. An entry is made under its own name and written once (a
temporary file renamed into place cost a second creation a cycle): one that a
crash or a reader in another daemon finds cut short fails its signature, so
it reads as absent, as a missing one does, and the next store replaces it
whole (a temporary file and a rename, as when two writers meet).

A mutator must not be able to hand its candidate a score. A command mutator
can compute its candidate's key (a git object id) and write a file where the
daemon would look, so an entry is used only when it carries a valid HMAC-SHA256
of its key and its rows, made with a secret (`<cache>/key`, 32 random bytes,
mode 0600, created once) that only the daemon writes with. A forged, edited,
truncated or unsigned entry reads as absent: the sample is evaluated again and
the entry rewritten. The secret alone does not stop a mutator that reads it
(it runs as the same user); what does is that the whole cache directory, key
included, is under the scope guard during the mutation (autoresearch.optimizer.guard.scope:
anything written there is saved, undone, and the candidate dropped) and is
hidden from the LLM mutator's tools. The signature then covers what the guard
cannot see: edits made between runs, or by anything else.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.plumbing import atomic
from autoresearch.plumbing.errors import writing
from autoresearch.plumbing.folders import within
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import Row, parse_rows

HEADER = "autoresearch-cache-v2"


class SampleCache:
    def __init__(self, root: Path, eval_key: str):
        self.root = root / eval_key
        self.eval_key = eval_key
        self._secret = _secret(root)
        self._held: dict[tuple[str, int], list[Row]] | None = None  # samples kept in memory while `held`
        self._before: dict[str, tuple[int, int]] | None = None  # and the entries on disk when it began
        self._lock = threading.Lock()
        self._claims: dict[tuple[str, int], tuple[threading.Lock, int]] = {}  # each lock and its users

    @contextmanager
    def claimed(self, artifact: str, n: int) -> Iterator[None]:
        """Sample `n` of this artifact looked up and measured by one thread at a time. Candidates evaluated at
        once that are the same artifact (two siblings that made the same edit) then cost one run and a hit,
        not two runs of which the luckier would be picked: a second chance the keep rule does not count."""
        key = (artifact, n)
        with self._lock:
            claim, users = self._claims.get(key, (threading.Lock(), 0))
            self._claims[key] = (claim, users + 1)
        try:
            with claim:
                yield
        finally:  # a lock no one holds or waits for is forgotten: one a cycle kept was a daemon's slow leak
            with self._lock:
                claim, users = self._claims.pop(key)
                if users > 1:
                    self._claims[key] = (claim, users - 1)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Samples stored meanwhile stay in memory (readable as stored) and are written when the block
        ends, normally or not: the cache is under the scope guard while a mutator runs, and evaluations
        that run at the same time (the cycle before, when mutations overlap) must not look like writes of
        the mutator's. The guard compares and undoes first; the block ends after it. Nor may those
        evaluations read what a mutator wrote meanwhile (a signed entry, the key being readable to it):
        only entries on disk, unchanged, since the block began are read."""
        with self._lock:
            self._held, self._before = {}, self._listing()
        try:
            yield
        finally:
            with self._lock:
                held, self._held, self._before = self._held, None, None
            for (artifact, n), rows in held.items():
                self.put(artifact, n, rows)

    def _path(self, artifact: str, n: int) -> Path:
        return self.root / f"{artifact}-sample-{n}.jsonl"

    def _mac(self, artifact: str, n: int, body: bytes) -> str:
        message = f"{self.eval_key}\n{artifact}\n{n}\n".encode() + body
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def get(self, artifact: str, n: int) -> list[Row] | None:
        """Sample `n` (1-based) of this artifact, or None when it was never stored by this cache's
        owner (absent, unreadable, unsigned, or its signature does not match)."""
        with self._lock:
            if self._held is not None and (artifact, n) in self._held:
                return self._held[(artifact, n)]
            before = self._before
        path = self._path(artifact, n)
        read = _read(path)
        if read is None:
            return None
        data, stamp = read
        if before is not None and before.get(path.name) != stamp:  # written since `held` began: not ours
            return None
        header, _, body = data.partition(b"\n")
        try:
            fields = json.loads(header)
            valid = fields.get("format") == HEADER and hmac.compare_digest(
                str(fields.get("mac")), self._mac(artifact, n, body)
            )
        except (ValueError, AttributeError):
            return None
        if not valid:
            return None
        try:
            return parse_rows(path, body.decode("utf-8"))
        except (BadResults, UnicodeDecodeError):
            return None

    def put(self, artifact: str, n: int, rows: list[Row]) -> None:
        with self._lock:
            if self._held is not None:
                self._held[(artifact, n)] = rows
                return
        path = self._path(artifact, n)
        body = "".join(json.dumps(row) + "\n" for row in rows).encode("utf-8")
        header = json.dumps({"format": HEADER, "mac": self._mac(artifact, n, body)}).encode()
        entry = header + b"\n" + body
        if within(self.root, lambda: _made(path, entry)):  # the eval's folder: made at its first entry
            return
        atomic.write_bytes(path, entry, durable=False)  # a temporary file of its own: parallel candidates too

    def stored(self, artifact: str, after: int = 0) -> list[list[Row]]:
        """The consecutive valid samples of this artifact stored from index `after + 1` on, each read once
        (a sequential rule's HEAD samples were counted, then read again, every cycle)."""
        samples: list[list[Row]] = []
        while (rows := self.get(artifact, after + len(samples) + 1)) is not None:
            samples.append(rows)
        return samples

    def _listing(self) -> dict[str, tuple[int, int]]:
        try:
            return {e.name: _stamp(e.stat()) for e in os.scandir(self.root) if e.is_file(follow_symlinks=False)}
        except FileNotFoundError:
            return {}


def _read(path: Path) -> tuple[bytes, tuple[int, int]] | None:
    """The bytes of the regular file at `path` and its `_stamp`; None for anything else there: missing, a
    link (never followed), a FIFO a mutator running ahead put there (opening it never blocks)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            data = f.read()
        except OSError:
            return None
        return data, _stamp(os.fstat(fd))  # taken after the read: a write meanwhile moves it


def _made(path: Path, entry: bytes) -> bool:
    """`entry` written into a file made at `path`; False, having written nothing, when something is there
    already (an entry cut short, another writer's, a link: never followed)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except FileExistsError:
        return False
    with os.fdopen(fd, "wb") as f, writing(path):
        f.write(entry)
    return True


def _stamp(stat: os.stat_result) -> tuple[int, int]:
    """What changes whenever an entry is written or replaced: its inode and its ctime (which no process sets)."""
    return stat.st_ino, stat.st_ctime_ns


def _secret(root: Path) -> bytes:
    """The cache's signing secret, created once; two daemons starting together agree on one
    (the second link fails and reads the first's)."""
    path = root / "key"
    try:
        secret = path.read_bytes()
        if len(secret) == 32:
            return secret
    except FileNotFoundError:
        pass
    root.mkdir(parents=True, exist_ok=True)
    fd, name = atomic.made_beside(path)  # 0600, a name no link was put at
    tmp = Path(name)
    try:
        with writing(path), os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        if path.exists():  # damaged (wrong length): replaced; its entries read as absent
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_bytes()
