"""`autoresearch serve`: watch experiments live in a browser and control them over a local API, on this machine only."""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.options import ConfigOption

if TYPE_CHECKING:
    import socket


def command(
    experiment: str = typer.Argument(None, help="Experiment to open (default: an index of all experiments)."),
    port: int = typer.Option(8765, "--port", "-p", help="Port to listen on; 0 picks a free one."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Interface to listen on. Anything but loopback exposes your results."
    ),
    config: Path = ConfigOption,
) -> int:
    """Serve the results directory and the control API (/v1, described at /docs) and print the URL; the page
    refreshes itself while the loop runs. Requests that change anything need the bearer token kept in
    <results_dir>/api-token (mode 0600), whose path is printed."""
    import uvicorn

    from autoresearch.optimizer.api import token
    from autoresearch.optimizer.api.app import Served, make_app
    from autoresearch.optimizer.commands.common import experiment as find_experiment
    from autoresearch.optimizer.gitrepo.workspace import exclude
    from autoresearch.plumbing import collector
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.plumbing.repo import config_dir
    from autoresearch.trajectory import server

    if not 0 <= port <= 65535:
        raise InvalidInput(f"--port {port}: a port is a number from 0 to 65535 (0 picks a free one)")
    _, ws, paths = find_experiment(experiment, config)
    if experiment and not paths.meta.exists():
        raise InvalidInput(f"experiment '{experiment}' has no results in {paths.root}")
    if host not in server.LOOPBACK:
        print(f"warning: serving on {host}: anyone who can reach this machine can read your results", file=sys.stderr)
    exclude(ws.root, str(Path(paths.results_dir).relative_to(ws.root)))  # the token file never shows as untracked
    token_file, secret = token.ensure(paths.results_dir)
    sock = _listen(host, port)
    bound_host, bound_port = str(sock.getsockname()[0]), sock.getsockname()[1]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    base = f"http://{shown}:{bound_port}"
    url = base + (server.chart_url(paths.root.name) if experiment else "/")
    print(f"serving {paths.results_dir} at {url}  (Ctrl-C to stop)", flush=True)
    print(f"control API at {base}/v1 (described at {base}/docs); its bearer token is in {token_file}", flush=True)
    served = Served(
        config.resolve(), config_dir(config), Path(paths.results_dir).resolve(), secret, host in server.LOOPBACK
    )
    app = make_app(served)
    collector.started()  # a server runs for days: its garbage collected at the usual pace
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")).run(sockets=[sock])
    print("stopped")
    return 0


def _listen(host: str, port: int) -> socket.socket:
    import socket  # 8 ms of every command's start-up, for `serve` alone

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        from autoresearch.plumbing.errors import InvalidInput

        if exc.errno == errno.EADDRINUSE:
            raise InvalidInput(f"port {port} is in use: pass --port with another number (0 picks a free one)") from None
        raise InvalidInput(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    return sock
