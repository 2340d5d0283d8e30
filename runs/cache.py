"""The result cache: one eval sample's rows, keyed by (eval, artifact, sample index).

Each entry is a whole index.jsonl (one row per test, with its target), so a
lookup by (eval definition, artifact content, target, test id, sample index)
is one read. An eval's entries are appended, one line each, to one log in its
folder (autoresearch.runs.cachelog: how a torn or concurrent append is kept
apart, and how a lookup finds its line). Entries an older version wrote, a
file each (`<artifact>-sample-<n>.jsonl`, format v2), are still read: a
user's cache survives the upgrade; new entries go to the log only.

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
hidden from the LLM mutator's tools (a log that only grew is cut back to its
settled length, so the entries before stay). The signature then covers what the guard
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
from autoresearch.runs.cachelog import NAME, TAG, Log
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import Row, parse_rows

HEADER = "autoresearch-cache-v3"  # a line of the log: its header, a tab, its rows joined by tabs
FILE = "autoresearch-cache-v2"  # a file an entry (read only)


class SampleCache:
    def __init__(self, root: Path, eval_key: str):
        self.root = root / eval_key
        self.eval_key = eval_key
        self._secret = _secret(root)
        self._held: dict[tuple[str, int], list[Row]] | None = None  # samples kept in memory while `held`
        self._before: dict[str, tuple[int, int]] | None = None  # and the v2 entries on disk when it began
        self._limit: tuple[int, int] | None = None  # and the log's (inode, size) then
        self._log = Log(self.root / NAME, self._check)
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
            self._held, self._before, self._limit = {}, self._listing(), self._size()
        self._log.refresh()  # every entry before the hold indexed with its signature's tag: one a mutator
        try:  # rewrites in place meanwhile (a signed forgery, its size the same) then fails it
            yield
        finally:
            with self._lock:
                held, self._held, self._before, self._limit = self._held, None, None, None
            self._log.refresh()
            for (artifact, n), rows in held.items():
                self.put(artifact, n, rows)

    def _mac(self, header: str, artifact: str, n: int, body: bytes) -> str:
        message = f"{self.eval_key}\n{artifact}\n{n}\n".encode() + body
        if header != FILE:  # a v2 entry was signed without its format
            message = f"{header}\n".encode() + message
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()

    def _key(self, artifact: str, n: int) -> int:
        """A sample's key in the log's index: keyed, so a mutator cannot make two samples share one."""
        digest = hashlib.blake2b(f"{artifact}\n{n}".encode(), digest_size=8, key=self._secret).digest()
        return int.from_bytes(digest, "little")

    def _check(self, line: bytes) -> tuple[int, int] | None:
        """A log line's (key, tag) when it is an entry this cache's owner signed, else None."""
        header, tab, body = line.partition(b"\t")
        try:
            fields = json.loads(header)
            artifact, n, mac = fields["artifact"], fields["n"], fields["mac"]
        except (ValueError, TypeError, KeyError, RecursionError):  # the last: nested thousands deep (unsigned)
            return None
        if not tab or fields.get("format") != HEADER or not isinstance(artifact, str) or type(n) is not int:
            return None
        expected = self._mac(HEADER, artifact, n, body)
        if not hmac.compare_digest(str(mac), expected):
            return None
        return self._key(artifact, n), int(expected[: TAG // 4], 16)

    def get(self, artifact: str, n: int) -> list[Row] | None:
        """Sample `n` (1-based) of this artifact, or None when it was never stored by this cache's
        owner (absent, unreadable, unsigned, or its signature does not match)."""
        with self._lock:
            if self._held is not None and (artifact, n) in self._held:
                return self._held[(artifact, n)]
            before, limit = self._before, self._limit
        key = self._key(artifact, n)
        found = self._log.find(key, limit)
        if found is not None and self._check(found[0]) == (key, found[1]):
            try:
                return parse_rows(self._log.path, found[0].partition(b"\t")[2].decode("utf-8").replace("\t", "\n"))
            except (BadResults, UnicodeDecodeError):
                return None
        return self._file(artifact, n, before)

    def _file(self, artifact: str, n: int, before: dict[str, tuple[int, int]] | None) -> list[Row] | None:
        """The sample from its own file, as versions before the log wrote it (v2)."""
        path = self.root / f"{artifact}-sample-{n}.jsonl"
        read = _read(path)
        if read is None:
            return None
        data, stamp = read
        if before is not None and before.get(path.name) != stamp:  # written since `held` began: not ours
            return None
        header, _, body = data.partition(b"\n")
        try:
            fields = json.loads(header)
            valid = fields.get("format") == FILE and hmac.compare_digest(
                str(fields.get("mac")), self._mac(FILE, artifact, n, body)
            )
        except (ValueError, AttributeError, RecursionError):
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
        body = "\t".join(json.dumps(row) for row in rows).encode("utf-8")  # a dumped row holds no raw tab
        mac = self._mac(HEADER, artifact, n, body)
        header = {"format": HEADER, "artifact": artifact, "n": n, "mac": mac}
        entry = b"\n" + json.dumps(header).encode() + b"\t" + body + b"\n"
        checked = self._key(artifact, n), int(mac[: TAG // 4], 16)  # as `_check` reads them back
        within(self.root, lambda: self._log.append(entry, checked))  # the eval's folder: made at its first entry

    def stored(self, artifact: str, after: int = 0) -> list[list[Row]]:
        """The consecutive valid samples of this artifact stored from index `after + 1` on, each read once
        (a sequential rule's HEAD samples were counted, then read again, every cycle)."""
        samples: list[list[Row]] = []
        while (rows := self.get(artifact, after + len(samples) + 1)) is not None:
            samples.append(rows)
        return samples

    def _size(self) -> tuple[int, int]:
        """The log's (inode, size): entries past it are not trusted while held; (-1, 0) when there is none."""
        try:
            st = os.lstat(self._log.path)
        except OSError:
            return -1, 0
        return (st.st_ino, st.st_size) if stat.S_ISREG(st.st_mode) else (-1, 0)

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
