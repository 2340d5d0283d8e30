"""A sandboxed command runs in a Landlock domain: an abstract Unix socket made outside it cannot be connected to,
even with the host's network (`network: true` shares the abstract namespace, which no mount hides), and no
signal leaves it; its own abstract sockets, TCP and its own signals work. Real bubblewrap, real processes, on
a kernel with Landlock ABI 6 or later (6.12): these fail, never skip, on an older one."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoresearch.plumbing import landlock, process
from autoresearch.plumbing.sandbox import Sandbox

CONNECT = """
import socket, sys
client = socket.socket(socket.AF_UNIX)
try:
    client.connect(sys.argv[1].replace("@", "\\0", 1))
    print("CONNECTED", client.recv(10).decode())
except OSError as exc:
    print("refused", exc.errno)
"""

SEND = """
import socket, sys
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"hello", sys.argv[1].replace("@", "\\0", 1))
    print("SENT")
except OSError as exc:
    print("refused", exc.errno)
"""

OWN_PAIR = """
import socket
server = socket.socket(socket.AF_UNIX)
server.bind("\\0own-" + str(id(server)))
server.listen()
client = socket.socket(socket.AF_UNIX)
client.connect(server.getsockname())
server.accept()[0].sendall(b"inside")
print("OWN", client.recv(10).decode())
"""

TCP = """
import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5):
    print("TCP CONNECTED")
"""

KILL = """
import os, signal, subprocess, sys
child = subprocess.Popen(["sleep", "600"])
os.kill(child.pid, signal.SIGTERM)  # its own child: in the domain
print("OWN CHILD", child.wait())
try:
    os.kill(int(sys.argv[1]), signal.SIGTERM)
    print("KILLED")
except OSError as exc:
    print("refused", exc.errno)
"""


@pytest.fixture
def abstract_server() -> Iterator[str]:
    """A service outside every sandbox listening on an abstract Unix socket (as an X server does), answering
    "outside" to whoever connects; its name as `@name`."""
    name = f"autoresearch-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("\0" + name)
        server.listen()
        server.settimeout(0.2)
        stop = False

        def answer() -> None:
            while not stop:
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                with conn:
                    conn.sendall(b"outside")

        thread = threading.Thread(target=answer, daemon=True)
        thread.start()
        yield "@" + name
        stop = True
        thread.join()


def sandboxed(tmp_path: Path, script: str, *args: str, network: bool = True) -> process.Completed:
    """`script` run by the system's python3 (this one's may lie in /tmp, which the sandbox replaces), in `tmp_path`."""
    argv = Sandbox(network=network, readable=(tmp_path,)).argv(["python3", "-c", script, *args], tmp_path)
    return process.run(argv, cwd=tmp_path, log_prefix=None, timeout_s=60)


def test_this_kernel_has_the_scopes_these_tests_need():
    assert landlock.abi() >= landlock.SCOPES_ABI


def test_an_abstract_socket_made_outside_cannot_be_reached_from_a_sandbox_with_the_network(tmp_path, abstract_server):
    done = sandboxed(tmp_path, CONNECT, abstract_server)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "refused 1\n"  # EPERM: Landlock's refusal, not a socket missing (ECONNREFUSED)


def test_a_datagram_to_an_abstract_socket_made_outside_is_refused_too(tmp_path):
    name = f"autoresearch-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        server.setblocking(False)
        done = sandboxed(tmp_path, SEND, "@" + name)
        assert done.stdout == "refused 1\n", done.stderr
        with pytest.raises(BlockingIOError):
            server.recv(10)


def test_outside_a_sandbox_the_same_socket_answers(tmp_path, abstract_server):
    done = process.run([sys.executable, "-c", CONNECT, abstract_server], cwd=tmp_path, log_prefix=None)
    assert done.stdout == "CONNECTED outside\n", done.stderr


def test_without_the_network_the_socket_is_not_there_at_all(tmp_path, abstract_server):
    done = sandboxed(tmp_path, CONNECT, abstract_server, network=False)
    assert done.stdout in ("refused 1\n", "refused 111\n"), done.stderr  # the domain's EPERM, or no socket


def test_the_commands_own_abstract_sockets_and_tcp_work(tmp_path):
    own = sandboxed(tmp_path, OWN_PAIR)
    with socket.create_server(("127.0.0.1", 0)) as server:
        tcp = sandboxed(tmp_path, TCP, str(server.getsockname()[1]))
    assert (own.stdout, tcp.stdout) == ("OWN inside\n", "TCP CONNECTED\n"), own.stderr + tcp.stderr


@pytest.fixture
def outside() -> Iterator[subprocess.Popen]:
    """A process of the test's, outside any sandbox or domain: what a command inside may try to signal."""
    started = subprocess.Popen(["sleep", "600"])
    yield started
    started.kill()
    started.wait()


def test_in_the_sandbox_a_process_outside_cannot_be_signalled(tmp_path, outside):
    """The PID namespace already hides it (ESRCH): the domain is a second wall, tested apart below."""
    done = sandboxed(tmp_path, KILL, str(outside.pid))
    assert done.stdout == f"OWN CHILD {-signal.SIGTERM}\nrefused 3\n", done.stderr
    assert outside.poll() is None


def test_the_domain_alone_refuses_a_signal_to_a_process_outside_it(tmp_path, outside):
    """Without bubblewrap's PID namespace the pid is there to see: the domain's scope refuses the signal."""
    argv = landlock.wrapped([sys.executable, "-c", KILL, str(outside.pid)])
    done = process.run(argv, cwd=tmp_path, log_prefix=None, timeout_s=60)
    assert done.stdout == f"OWN CHILD {-signal.SIGTERM}\nrefused 1\n", done.stderr
    assert outside.poll() is None


def test_a_sandboxed_command_gets_the_signals_bubblewrap_alone_leaves_it(tmp_path):
    """The wrapper's Python ignores SIGPIPE and SIGXFSZ at its start, and an ignored signal stays ignored across
    exec: `seq 1 1000000 | head -1` in the sandbox wrote `seq: write error: Broken pipe` and, under
    `set -o pipefail`, failed, where bubblewrap alone (and `subprocess`'s `restore_signals`) killed `seq` quietly."""
    command = ["/bin/bash", "-c", "grep SigIgn /proc/self/status; set -o pipefail; seq 1 1000000 | head -1"]
    box = Sandbox()
    wrapped, bare = (
        process.run(argv, cwd=tmp_path, log_prefix=None, timeout_s=60)
        for argv in (box.argv(command, Path("/")), box.bare(command, Path("/")))
    )
    assert box.argv(command, Path("/"))[0] == sys.executable  # in the domain
    assert (wrapped.returncode, wrapped.stdout, wrapped.stderr) == (bare.returncode, bare.stdout, bare.stderr)
    assert (bare.returncode, bare.stderr) == (141, "")


def test_a_sandboxed_command_gets_the_environment_it_was_given(tmp_path):
    """The wrapper's Python coerces a C locale to C.UTF-8 as it starts (PEP 538), setting LC_CTYPE in its
    environment, and `-I` keeps PYTHONCOERCECLOCALE=0 from turning that off: the command saw an LC_CTYPE
    its user had asked not to get, which bubblewrap alone never gave it."""
    command = ["/usr/bin/env"]
    given = {"PATH": os.environ["PATH"], "LANG": "C", "PYTHONCOERCECLOCALE": "0"}
    box = Sandbox()
    wrapped, bare = (
        subprocess.run(argv, capture_output=True, text=True, env=given, cwd=tmp_path)
        for argv in (box.argv(command, Path("/")), box.bare(command, Path("/")))
    )
    assert box.argv(command, Path("/"))[0] == sys.executable  # in the domain
    assert sorted(wrapped.stdout.splitlines()) == sorted(bare.stdout.splitlines()), wrapped.stderr
    assert "LC_CTYPE" not in bare.stdout


def test_where_bubblewrap_cannot_start_in_the_domain_the_sandbox_runs_without_it_and_says_why():
    """The kernel has the scopes, yet entering a domain fails: here a process already in the 16 nested domains
    Landlock allows (E2BIG). Every sandboxed command failed with 126 while the start said nothing; bubblewrap is
    now tried in the domain once, and where that fails the sandbox runs as it does on an older kernel."""
    code = (
        "from pathlib import Path\n"
        "from autoresearch.plumbing import landlock, process, sandbox\n"
        "for _ in range(16): landlock.restrict()\n"
        "print(sandbox.unscoped(sandbox.PROGRAM))\n"
        "done = process.run(sandbox.Sandbox().argv(['true'], Path('/')), cwd=Path('/'), log_prefix=None)\n"
        "print(done.returncode, done.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines() == [
        "bubblewrap could not start in the Landlock domain here (autoresearch: cannot enter the sandbox's "
        "Landlock domain: Argument list too long)",
        "0 ",
    ], done.stderr


def test_a_program_the_domain_cannot_start_is_one_line_and_127(tmp_path):
    argv = landlock.wrapped([str(tmp_path / "missing")])
    done = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "PATH": "/usr/bin"})
    assert done.returncode == 127
    assert done.stderr == f"autoresearch: cannot run {tmp_path / 'missing'}: No such file or directory\n"


def test_without_a_program_it_says_how_to_call_it():
    done = subprocess.run(landlock.wrapped([]), capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, "usage: python -I -S landlock.py PROGRAM [ARG ...]\n")


def test_a_python_without_ctypes_sandboxes_without_the_domain_and_says_why():
    """A Python built without libffi (pyenv on a machine lacking its headers) has no ctypes: the sandbox
    works as before, the domain is said missing, and nothing fails at import."""
    code = (
        "import sys; sys.modules['ctypes'] = None\n"
        "from autoresearch.plumbing import sandbox\n"
        "from pathlib import Path\n"
        "print(sandbox.unscoped('bwrap'))\n"
        "print(sandbox.Sandbox().argv(['true'], Path('/'))[0])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"this Python ({sys.executable}) has no ctypes (built without libffi) to enter the Landlock domain with",
        "bwrap",
    ]
