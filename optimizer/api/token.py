"""The bearer token of the control API: one random secret in a mode-0600 file under the results directory.

Whoever can read the file may change experiments; whoever cannot may only look. The file
is made once, with O_EXCL (no race with a second `serve`, no following a planted symlink),
and reused by later servers so that scripts keep working across restarts.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from autoresearch.plumbing import service_secrets
from autoresearch.plumbing.errors import InvalidInput

FILE = "api-token"


def ensure(results_dir: Path) -> tuple[Path, str]:
    """The token file's path and the token, made now if there is none; listed among the files no sandbox reads
    (a sandboxed mutator of another repository, with the network, would reach this API)."""
    path = results_dir / FILE
    results_dir.mkdir(parents=True, exist_ok=True)
    service_secrets.register(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return path, _read(path)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        token = secrets.token_urlsafe(32)
        f.write(token + "\n")
    return path, token


def _read(path: Path) -> str:
    """O_NONBLOCK and the file type checked before reading: a FIFO planted at the path would block the read
    (and `serve` with it) until someone wrote to it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read the API token ({exc.strerror}); remove it to make a new one") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise InvalidInput(f"{path}: the API token file is not a regular file; remove it to make a new one")
        if mode & 0o077:
            raise InvalidInput(
                f"{path}: the API token file must be a regular file of mode 0600 (chmod 600 it, or remove it)"
            )
        token = f.read().decode("utf-8", "replace").strip()
    if len(token) < 32:
        raise InvalidInput(f"{path}: the API token is shorter than 32 characters; remove the file to make a new one")
    return token
