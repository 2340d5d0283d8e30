"""Landlock scopes for a sandboxed command: no connecting to an abstract Unix socket made outside, no signal out.

bubblewrap with the host's network (`network: true`) shares its abstract Unix
namespace, where an X server (`@/tmp/.X11-unix/X0`), some D-Bus buses and other
tools listen: a mount namespace cannot hide them, and such a service may run
commands for whoever connects. A Landlock domain (Linux 6.12, ABI 6) scoped to
`LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET` refuses a connection from inside to a
socket made outside it, while the command's own sockets, TCP and named Unix
sockets work as before; `LANDLOCK_SCOPE_SIGNAL` refuses a signal to a process
outside it (the PID namespace already hides them: a second wall, free).

bubblewrap 0.8 has no Landlock option, and a `preexec_fn` is unsafe in a
daemon with threads, so this file is also a tiny program run *before*
bubblewrap: `python -I -S landlock.py bwrap ...` enters the domain and execs
bwrap, which the domain then holds with everything it starts. Run before it,
the program needs nothing the sandbox shows (the interpreter or this file may
lie in `/tmp`, which the sandbox replaces), and `-I -S` keep it to the
standard library: no site-packages, no environment, no current folder. It
imports nothing of autoresearch, so it runs the same from a wheel, pipx or a
checkout. It costs one interpreter start per sandboxed command.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # `signal`'s C module, loaded at start: `signal` adds enum's 3 ms
import os
import sys

SCOPES_ABI = 6  # LANDLOCK_SCOPE_* came with ABI 6 (Linux 6.12)
_CREATE_RULESET, _RESTRICT_SELF = 444, 446  # the same numbers on every architecture but alpha (the unified table)
_CREATE_RULESET_VERSION = 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1, 2
_PR_SET_NO_NEW_PRIVS = 38
_REFUSED = 126  # the shell's "cannot execute": the domain could not be entered, the command never ran
_IGNORED_AT_START = ("SIGPIPE", "SIGXFSZ")  # what Python ignores as it starts (and `subprocess` restores)


def _syscall(number: int, *args: object) -> int:
    """The system call's result; OSError with its errno when it fails."""
    import ctypes  # here, not at the top: a Python built without libffi has none (see `missing`)

    return _libc("syscall", ctypes.c_long(number), *args)


def _libc(function: str, *args: object) -> int:
    """The C library function's result; OSError with its errno when it fails."""
    import ctypes

    call = getattr(ctypes.CDLL(None, use_errno=True), function)
    call.restype = ctypes.c_long
    result = int(call(*args))
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    return result


_abi: list[int] = []


def abi() -> int:
    """The kernel's Landlock ABI version, 0 without Landlock (not Linux, too old, turned off, a seccomp filter
    that refuses it); asked once per process."""
    if not _abi:
        _abi.append(_asked() if sys.platform == "linux" else 0)  # elsewhere the number is another call
    return _abi[0]


def _asked() -> int:
    import ctypes

    try:
        return _syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except OSError:  # ENOSYS (too old), EOPNOTSUPP (turned off at boot), EPERM (a seccomp filter)
        return 0


def missing() -> str | None:
    """Why no command can be started in the scoped domain here, or None."""
    if not sys.executable or not os.path.isfile(__file__):  # an embedded Python, a zip
        return "no Python interpreter and file to enter the Landlock domain with"
    try:
        import ctypes  # noqa: F401 (only whether it is there)
    except ImportError:
        return f"this Python ({sys.executable}) has no ctypes (built without libffi) to enter the Landlock domain with"
    if abi() < SCOPES_ABI:
        found = f"ABI {abi()}" if abi() else "none"
        return f"the kernel's Landlock ({found}) has no scopes (ABI {SCOPES_ABI}, Linux 6.12)"
    return None


def wrapped(argv: list[str]) -> list[str]:
    """`argv` started in the scoped domain (see the module's docstring)."""
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), *argv]


def restrict() -> None:
    """Enter a Landlock domain scoped to abstract Unix sockets and signals, for this process and all it starts.

    No file or network access is handled: the mount namespace does that, and a domain that handled files
    would refuse bubblewrap its mounts."""
    import ctypes

    class RulesetAttr(ctypes.Structure):  # struct landlock_ruleset_attr, as ABI 6 has it
        _fields_ = [  # noqa: RUF012 (ctypes reads it from the class)
            ("handled_access_fs", ctypes.c_uint64),
            ("handled_access_net", ctypes.c_uint64),
            ("scoped", ctypes.c_uint64),
        ]

    attr = RulesetAttr(0, 0, _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL)
    ruleset = _syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
    try:
        _libc("prctl", ctypes.c_int(_PR_SET_NO_NEW_PRIVS), *(ctypes.c_ulong(n) for n in (1, 0, 0, 0)))
        _syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)


def _restore_signals() -> None:
    """The signals Python ignored at its start back to their default: an ignored signal stays ignored across
    exec, so bubblewrap and the command would inherit it (a `seq | head` in the sandbox wrote "Broken pipe" and
    failed under `pipefail`), where `subprocess`'s `restore_signals` gives a command the default."""
    for name in _IGNORED_AT_START:
        _signal.signal(getattr(_signal, name), _signal.SIG_DFL)


def _as_given() -> dict[bytes, bytes]:
    """The environment this program was started with, as the kernel holds it: Python's start may have added
    LC_CTYPE (PEP 538 coerces a C locale to C.UTF-8, and `-I` ignores the PYTHONCOERCECLOCALE=0 that turns
    it off), which bubblewrap and the command would otherwise inherit. Python's own where /proc cannot tell."""
    try:
        with open("/proc/self/environ", "rb") as given:
            entries = given.read().split(b"\0")
    except OSError:
        return dict(os.environb)
    return dict(entry.split(b"=", 1) for entry in entries if b"=" in entry)


def main(argv: list[str]) -> int:
    """Enter the domain and exec `argv`; on failure one line on stderr and 126 (not run) or 127 (not found)."""
    if not argv:
        print("usage: python -I -S landlock.py PROGRAM [ARG ...]", file=sys.stderr)
        return 2
    try:
        restrict()
    except OSError as exc:
        print(f"autoresearch: cannot enter the sandbox's Landlock domain: {exc.strerror}", file=sys.stderr)
        return _REFUSED
    _restore_signals()
    try:
        os.execvpe(argv[0], argv, _as_given())
    except OSError as exc:
        print(f"autoresearch: cannot run {argv[0]}: {exc.strerror}", file=sys.stderr)
        return 127 if isinstance(exc, FileNotFoundError) else _REFUSED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
