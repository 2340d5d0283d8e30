"""What the live view hands out: the pages and the run files they link, nothing else of the results directory.

The results directory also holds the control API's token, the result cache's signing
key, each experiment's state, lock and log, the scope guard's copies of what it undid
(a `.env` among them) and whatever a mutator or an eval planted there. Serving the
directory whole gave all of it to anyone who asked, so a URL is answered only when it
is one the pages link:

- `/compare/<name>.html`, the comparisons `autoresearch chart A B` writes (the index links them);
- `/runs/<experiment>/_autoresearch/trajectory.html`, an experiment's chart;
- `/runs/<experiment>/<run>/`, a run directory, listing only the files below;
- `/runs/<experiment>/<run>/<file>` for the files the chart's table links (`page_parts.RUN_FILES`).

Each segment is percent-decoded on its own (so `%2F` is never a separator), every
directory on the way is opened without following a symlink, and only a regular file
is read (a FIFO planted under a linked name would hang the request).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from autoresearch.plumbing import paths
from autoresearch.trajectory import compare
from autoresearch.trajectory.page_parts import RUN_FILES

HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"  # run files open in the browser rather than download


@dataclass(frozen=True)
class File:
    body: bytes
    media_type: str


@dataclass(frozen=True)
class Listing:
    """A run directory: which of the linked files it holds."""

    experiment: str
    run: str
    files: list[str]


def locate(root: Path, raw_path: bytes) -> File | Listing | None:
    """What `raw_path` (the request's path as sent, still percent-encoded) names under `root`, or None: not ours
    to serve, missing, behind a symlink, or not a regular file."""
    match _segments(raw_path):
        case [compare.FOLDER, name] if name.endswith(".html"):
            return _file(root, [compare.FOLDER], name, HTML)
        case [paths.RUNS, experiment, paths.META, "trajectory.html"]:
            return _file(root, [paths.RUNS, experiment, paths.META], "trajectory.html", HTML)
        case [paths.RUNS, experiment, run, ""] if run != paths.META:
            return _listing(root, experiment, run)
        case [paths.RUNS, experiment, run, name] if run != paths.META and name in RUN_FILES:
            return _file(root, [paths.RUNS, experiment, run], name, TEXT)
    return None


def _segments(raw_path: bytes) -> list[str]:
    """The path's segments after the leading `/`, each decoded on its own; [] for a path with a segment
    that could step out of its folder or name a hidden file (only the last may be empty: a folder)."""
    text = raw_path.decode("latin-1")
    if not text.startswith("/"):
        return []
    try:
        segments = [unquote(s, errors="strict") for s in text[1:].split("/")]
    except UnicodeDecodeError:
        return []
    for i, s in enumerate(segments):
        if (not s and i != len(segments) - 1) or s.startswith(".") or any(c in s for c in "/\\\0"):
            return []
    return segments


def _file(root: Path, folders: list[str], name: str, media_type: str) -> File | None:
    with _folder(root, folders) as fd:
        if fd is None:
            return None
        try:  # O_NONBLOCK: opening a FIFO for reading would wait for a writer
            file_fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        except OSError:
            return None
    with os.fdopen(file_fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        return File(f.read(), media_type)


def _listing(root: Path, experiment: str, run: str) -> Listing | None:
    with _folder(root, [paths.RUNS, experiment, run]) as fd:
        if fd is None:
            return None
        return Listing(experiment, run, [name for name in RUN_FILES if _is_file(name, fd)])


def _is_file(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


@contextmanager
def _folder(root: Path, folders: list[str]) -> Iterator[int | None]:
    """A descriptor of root/folders[0]/..., each opened without following a symlink; None if any is not a
    real directory."""
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield None
        return
    try:
        for name in folders:
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
    except OSError:
        os.close(fd)
        yield None
        return
    try:
        yield fd
    finally:
        os.close(fd)
