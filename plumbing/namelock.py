"""A lock no file operation can take away: a name in Linux's abstract socket namespace.

The experiment's locks are flocks on files. A mutator without the sandbox can
delete those files (the copies under git's folder too), and a second process
then makes a fresh file and locks it while the first daemon still runs. A bound
abstract socket has no file: the name is held until its process closes it or
dies, and binding it again is refused. Where there is no abstract namespace
(not Linux) the flocks alone hold.
"""

from __future__ import annotations

import hashlib
import socket
import struct
import sys


def _address(key: str) -> str:
    return "\0autoresearch-" + hashlib.sha256(key.encode()).hexdigest()[:40]


class NameLock:
    """Held for as long as this process keeps it (its socket is not inherited by the commands it starts)."""

    def __init__(self, key: str):
        self.key = key
        self._socket: socket.socket | None = None

    def take(self) -> int | None:
        """None once held (or where no such lock exists); when another process holds it, that process's
        pid (0 when it cannot be told)."""
        if not sys.platform.startswith("linux") or self._socket is not None:
            return None
        held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            held.bind(_address(self.key))
        except OSError:
            held.close()
            return holder(self.key)
        held.listen(64)  # never accepted: a connection only asks who holds the name (SO_PEERCRED)
        self._socket = held
        return None

    def release(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def holder(key: str) -> int:
    """The pid holding `key`'s name, 0 when nobody answers."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.setblocking(False)
        try:
            probe.connect(_address(key))
            pid, _, _ = struct.unpack("3i", probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
        except OSError:
            return 0
        return int(pid)
