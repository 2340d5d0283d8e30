"""A piece of the daemon run as a user whom mode bits bind: root ignores them, and the suite may run as root.

As root, the tree is given to `nobody` and a forked child drops to that user
before it acts; as anyone else, the child acts as that user (a plain chmod
then binds it already). A fork, not `setpriv` and a new interpreter: the
interpreter running the suite may sit where `nobody` cannot reach (a Python
under /root). The child's failure, its traceback, fails the test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pygit2
from pygit2.enums import ConfigLevel

NOBODY = 65534


@contextmanager
def tree() -> Iterator[Path]:
    """A temporary folder the child's user can reach and own: pytest's tmp_path sits below a folder only its
    user may enter."""
    top = Path(tempfile.mkdtemp(prefix="autoresearch-unprivileged-"))
    top.chmod(0o755)
    try:
        yield top
    finally:
        shutil.rmtree(top, ignore_errors=True)


def run(top: Path, action: Callable[[], object]) -> None:
    """`action` in a forked child, as `nobody` owning everything below `top` when this process is root."""
    if os.geteuid() == 0:
        for folder, names, files in os.walk(top):
            for name in [folder, *(os.path.join(folder, n) for n in names + files)]:
                os.lchown(name, NOBODY, NOBODY)
    read, write = os.pipe()
    with warnings.catch_warnings():  # the child runs `action` alone and leaves by os._exit
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        code = 0
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                os.environ["HOME"] = str(top)  # git reads its user's configuration there, and libgit2
                for level in (ConfigLevel.GLOBAL, ConfigLevel.XDG):  # (which found root's when it loaded)
                    pygit2.settings.search_path[level] = str(top)
            action()
        except BaseException:
            os.write(write, traceback.format_exc().encode())
            code = 1
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as said:
        told = said.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, told
