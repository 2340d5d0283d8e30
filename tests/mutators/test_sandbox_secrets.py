"""A sandboxed mutator with the network (`network: true`, the default) can reach the host's 127.0.0.1 services: a
local Ray cluster, where whoever holds the cluster's token runs code unsandboxed, and the control API of any
`autoresearch serve`, whose token starts runs and rolls back. So no token reaches the sandbox: neither Ray's
variable nor the file it names, nor ~/.ray/auth_token, nor the API token of a `serve` in another repository. And
network or not, a Unix socket on a path it sees lets it ask a service to run a command outside (the user's systemd
manager and session bus live in the runtime folder): that folder is not there. Real
bubblewrap, a real daemon and server, a mutator that looks for them as a hijacked agent would."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.repos import GIT_ENV, cli
from tests.helpers.scenario import iterations, scenario_repo, scores

LOOKS = r"""
import json, os, socket, sys
from pathlib import Path


def read(path):
    try:
        return Path(path).read_text()
    except OSError as exc:
        return exc.strerror


def connect(path):  # as `systemd-run --user` reaches the user's service manager, to run a command outside
    try:
        socket.socket(socket.AF_UNIX).connect(path)
        return "connected"
    except OSError as exc:
        return exc.strerror


seen = {
    "api token": read(sys.argv[3]),
    "session service": connect(sys.argv[4]),
    "variables": {k: v for k, v in os.environ.items() if k.startswith("RAY_AUTH_TOKEN")},
    "default file": read(Path.home() / ".ray/auth_token"),
    "named file": read(sys.argv[2]),
}
Path(sys.argv[1], "seen.json").write_text(json.dumps(seen))
Path(os.environ["AUTORESEARCH_ARTIFACT"]).write_text("a 1\n")
"""

TOKEN = "ray-cluster-token-0123456789"


@pytest.fixture
def home() -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="autoresearch-home-", dir="/var/tmp"))  # the sandbox's /tmp is its own
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def serve(repo: Path, env: dict) -> tuple[subprocess.Popen, Path]:
    """`autoresearch serve` running in `repo` (out of /tmp, which the sandbox replaces), and its token file."""
    server = subprocess.Popen(
        [sys.executable, "-P", "-m", "autoresearch.optimizer", "serve", "--port", "0"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **GIT_ENV, **env},
    )
    assert server.stdout is not None
    server.stdout.readline()  # serving at ...
    return server, Path(server.stdout.readline().rsplit(" in ", 1)[1].strip())


def test_no_local_services_token_reaches_a_sandboxed_mutator(tmp_path, home):
    (home / ".ray").mkdir()
    (home / ".ray/auth_token").write_text(TOKEN)
    named, out = home / "cluster-token", home / "out"
    named.write_text(TOKEN)
    out.mkdir()
    env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local/state")}
    other = scenario_repo(home / "other", {"prompt.md": scores(a=0)}, {})
    server, api_token = serve(other, env)
    runtime = home / "run"  # the user's runtime folder, with a service's socket in it (the session bus's, say)
    runtime.mkdir(mode=0o700)
    door = runtime / "bus"
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(door))
    listening.listen(1)
    env["XDG_RUNTIME_DIR"] = str(runtime)
    repo = scenario_repo(
        tmp_path / "repo",
        {"prompt.md": scores(a=0)},
        {},
        config={
            "mutator": {
                "command": f"python3 tools/looks.py {out} {named} {api_token} {door}",
                "sandbox": {"mode": "on", "writable": [str(out)]},
            },
            "stop": {"max_cycles": 2},
        },
        extra_files={"tools/looks.py": LOOKS},
    )
    env |= {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": TOKEN, "RAY_AUTH_TOKEN_PATH": str(named)}
    try:
        done = cli(repo, "run", env=env)
    finally:
        server.terminate()
        server.wait(timeout=30)
        listening.close()
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]
    seen = json.loads((out / "seen.json").read_text())
    assert TOKEN not in json.dumps(seen), seen
    assert api_token.read_text().strip() not in json.dumps(seen), seen
    assert seen["variables"] == {}
    assert seen["session service"] != "connected"
    assert (home / ".ray/auth_token").read_text() == TOKEN and named.read_text() == TOKEN  # the user's stay
