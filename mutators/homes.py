"""A sandboxed coding agent's homes (`~/.claude`, `~/.claude.json`, `~/.codex`) as throwaway copies.

Shared writable, the real ones let the agent, or a prompt that the repository's content injected into it, plant
a hook in `~/.claude/settings.json`, an MCP server in `~/.claude.json`, instructions in `~/.claude/CLAUDE.md` or
Codex's `config.toml` and `AGENTS.md`: they would run or steer the user's own later sessions, outside any
sandbox. So each mutation gets copies (without the history the agent need not read), seen writable at the real
paths and removed after. Only a renewed login comes back, as plain data and atomically: an agent that refreshed
its OAuth token may have spent the refresh token the user's file still holds.

A daemon killed during a mutation (kill -9, the OOM killer) cannot remove its copies, which hold the user's logins:
each copy's folder is locked (flock) while in use, so the next mutation or start, of any daemon, knows a dead
owner's folder by its free lock (the kernel drops a dead process's locks), brings back the login it renewed,
and removes it, and never touches the folder of a daemon running beside.
"""

from __future__ import annotations

import base64
import fnmatch
import json
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from autoresearch.plumbing import atomic, owned, trees

LOGIN_LIMIT = 1 << 20  # a login is a few KB: anything bigger is not one
PREFIX = "autoresearch-homes-"
_STAGING = ".autoresearch-homes-new-"  # not PREFIX: a sweep takes a folder by this name only once its maker died
_RECORD = "logins.json"  # what a sweep needs to bring a dead owner's renewed logins back


@dataclass(frozen=True)
class Home:
    """A coding agent's home: what of it is left out of the copy, and the file holding its login."""

    path: str  # `~` is the user's home folder
    skipped: tuple[str, ...] = ()  # top-level names (shell patterns): sessions, logs, history
    login: str | None = None  # relative to `path`


AGENT_HOMES = (
    Home(
        "~/.claude",
        (
            "projects",
            "todos",
            "shell-snapshots",
            "statsig",
            "logs",
            "file-history",
            "debug",
            "session-env",
            "paste-cache",
            "telemetry",
            "backups",
            "history.jsonl",
        ),
        ".credentials.json",
    ),
    Home("~/.claude.json"),
    Home(
        "~/.codex",
        ("sessions", "archived_sessions", "log", "shell_snapshots", "history.jsonl", "logs_*.sqlite*"),
        "auth.json",
    ),
)


@dataclass(frozen=True)
class _Copy:
    real: Path  # resolved: where the command sees the copy
    copy: Path
    login: str | None
    before: bytes | None  # the login as it was copied


@contextmanager
def throwaway() -> Iterator[tuple[tuple[Path, Path], ...]]:
    """(copy, real path) of each agent home that exists, for `Sandbox.copies`. On the way out, however the
    command ended, a renewed login is written back and the copies are removed; a dead daemon's are removed first."""
    clear_leftovers()
    area, lock = _claimed()
    try:
        copies = [c for home in AGENT_HOMES if (c := _copy(home, area)) is not None]
        _record(area, copies)
        try:
            yield tuple((c.copy, c.real) for c in copies)
        finally:
            for c in copies:
                _bring_back(c)
    finally:
        trees.remove(area, ignore_errors=True)
        os.close(lock)


def clear_leftovers() -> list[Path]:
    """The copies' folders whose owner died (their lock is free), each removed after the logins renewed in it are
    brought back as its owner would have; a folder of another user, one whose owner lives, or an older version's
    (its daemon may live: it took no lock), is left alone."""
    return owned.sweep(PREFIX, _STAGING, _recording, _bring_back_all)


def _bring_back_all(area: Path) -> None:
    for c in _recorded(area):
        _bring_back(c)


def _claimed() -> tuple[Path, int]:
    """A new private folder (0700: the copies hold the user's logins) and the descriptor holding its lock,
    marked as locked while in use by its record."""
    return owned.claim(PREFIX, _STAGING, lambda staging: _record(staging, []))


def _recording(fd: int) -> bool:
    """Whether the folder is one of this kind: an older version's copies hold no record and no lock, so a free
    lock would not say that their daemon died."""
    try:
        return stat.S_ISREG(os.stat(_RECORD, dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _record(area: Path, copies: list[_Copy]) -> None:
    """The logins as copied, beside the copies (out of the sandbox's reach: only the copies are mounted in it)."""
    logins = [
        {"real": str(c.real), "copy": c.copy.name, "login": c.login, "before": base64.b64encode(c.before).decode()}
        for c in copies
        if c.login is not None and c.before is not None
    ]
    atomic.write_text(area / _RECORD, json.dumps(logins), durable=False)


def _recorded(area: Path) -> list[_Copy]:
    """A dead owner's copies with a login, as `_record` wrote them ([] when it died before, or the record is not
    one: nothing is brought back then). Only an agent's own login file (`.credentials.json` of a `.claude` copy,
    `auth.json` of a `.codex` one) is taken, and written only over the very bytes recorded (`_bring_back`)."""
    data = _plain(area / _RECORD)
    logins = {(Path(h.path).name, h.login) for h in AGENT_HOMES if h.login is not None}
    try:
        entries = json.loads(data) if data is not None else []
        copies = [
            _Copy(Path(x["real"]), area / Path(x["copy"]).name, str(x["login"]), base64.b64decode(x["before"]))
            for x in entries
        ]
    except (ValueError, TypeError, KeyError, RecursionError):
        return []
    return [c for c in copies if (c.copy.name, c.login) in logins]


def _copy(home: Home, area: Path) -> _Copy | None:
    """A copy of `home` in `area`, or None when there is none to share (the agent then finds it read-only)."""
    real = Path(home.path).expanduser()
    if not real.exists():
        return None
    real, copy = real.resolve(), area / Path(home.path).name
    try:
        if real.is_dir():
            shutil.copytree(real, copy, symlinks=True, ignore=_skipping(real, home.skipped), copy_function=_copy_file)
        else:
            _copy_file(str(real), str(copy))
    except OSError:  # what the daemon cannot read, the agent (the same user) could not read either
        pass
    if not copy.exists():  # then the agent finds the real one read-only
        return None
    before = _plain(copy / home.login) if home.login else None
    return _Copy(real, copy, home.login, before)


def _skipping(top: Path, patterns: tuple[str, ...]) -> Callable[[str, list[str]], set[str]]:
    def ignore(folder: str, names: list[str]) -> set[str]:
        if Path(folder) != top:
            return set()
        return {n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)}

    return ignore


def _copy_file(src: str, dst: str) -> None:
    """Regular files only: a socket or a FIFO (an IDE's) would fail or block the copy."""
    if stat.S_ISREG(os.stat(src).st_mode):
        shutil.copy2(src, dst)


def _bring_back(c: _Copy) -> None:
    """The copy's login over the user's when the agent renewed it, as plain data (a link planted in the copy
    is not followed), a JSON object, and the user's is still the one copied (else a session of the user's,
    or a sibling mutation, renewed it meanwhile: that one stays). A login the user had not is not made."""
    if c.login is None or c.before is None:
        return
    renewed = _plain(c.copy / c.login)
    if renewed is None or renewed == c.before or not _json_object(renewed):
        return
    target = (c.real / c.login).resolve()
    if _plain(target) != c.before:
        return
    atomic.write_bytes(target, renewed, mode=stat.S_IMODE(target.stat().st_mode))


def _plain(path: Path) -> bytes | None:
    """The bytes of the regular file at `path` itself (a symbolic link is not followed), at most
    LOGIN_LIMIT of them, or None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = f.read(LOGIN_LIMIT + 1)
    return data if len(data) <= LOGIN_LIMIT else None


def _json_object(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), dict)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return False
