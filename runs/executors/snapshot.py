"""The snapshot a remote task works in: the candidate's tree as one compressed tar, never a path on the driver.

What goes in: every file git would commit from the tree (tracked, plus untracked files that are not
ignored), so the artifact, the eval file, its graders, targets and whatever they reference are there as
they are on the driver, uncommitted edits included. What stays out: `.git`, the results directory,
`.env` files (keys reach tasks through their environment, never through the snapshot), symbolic links
that lead outside the tree, and anything that is not a regular file. Outside a git repository every
file under the root is taken, with the same exclusions. A snapshot larger than `max_bytes` (compressed)
is refused before any task is sent.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from autoresearch.runs.errors import RunsError


@dataclass(frozen=True)
class Snapshot:
    data: bytes  # a gzipped tar of the tree
    digest: str  # its sha256: a worker unpacks one snapshot once
    files: int


def build(root: Path, skip: list[str], max_bytes: int) -> Snapshot:
    """The tree under `root` as a snapshot, without `skip` (folders relative to root) and the exclusions above."""
    names = sorted(n for n in _files(root) if _wanted(n, skip))
    buffer = io.BytesIO()
    # gzip's header holds a time, now unless told: the same tree built a second later would get another digest
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=6, mtime=0) as packed,
        tarfile.open(fileobj=packed, mode="w") as tar,
    ):
        for name in names:
            path = root / name
            if path.is_symlink() and not _inside(root, path):
                continue
            if not path.is_file():
                continue
            info = tar.gettarinfo(str(path), arcname=name)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as handle:
                tar.addfile(info, handle)
            if buffer.tell() > max_bytes:
                raise _too_big(root, max_bytes)
    data = buffer.getvalue()
    if len(data) > max_bytes:
        raise _too_big(root, max_bytes)
    return Snapshot(data, hashlib.sha256(data).hexdigest(), len(names))


def unpack(data: bytes, into: Path) -> None:
    """Unpack a snapshot into an empty folder; the `data` filter refuses members that would land outside it."""
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(into, filter="data")


def pack_dir(folder: Path) -> bytes:
    """A run directory a remote command eval wrote, as bytes to hand back to the driver."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                tar.add(str(path), arcname=str(path.relative_to(folder)))
    return buffer.getvalue()


def _files(root: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
    )
    if listed.returncode == 0:
        return [n for n in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    return [str(Path(d, f).relative_to(root)) for d, _, fs in os.walk(root) for f in fs]


def _wanted(name: str, skip: list[str]) -> bool:
    parts = Path(name).parts
    if ".git" in parts or Path(name).name == ".env" or Path(name).name.startswith(".env."):
        return False
    return not any(name == s or name.startswith(s.rstrip("/") + "/") for s in skip)


def _inside(root: Path, path: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


class TooBig(RunsError):
    """The tree is over the limit; the caller names the setting that gave it (and the config file)."""


def _too_big(root: Path, max_bytes: int) -> TooBig:
    return TooBig(
        f"the tree at {root} is over {max_bytes / 1e6:g} MB compressed; "
        "ignore its large files in .gitignore or raise the limit"
    )
