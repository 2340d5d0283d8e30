"""`autoresearch serve`: watch experiments live in a browser, from the results directory, on this machine only."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import ConfigOption


def command(
    experiment: str = typer.Argument(None, help="Experiment to open (default: an index of all experiments)."),
    port: int = typer.Option(8765, "--port", "-p", help="Port to listen on; 0 picks a free one."),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Interface to listen on. Anything but loopback exposes your results."
    ),
    config: Path = ConfigOption,
) -> int:
    """Serve the results directory over HTTP and print the URL; the page refreshes itself while the loop runs."""
    from autoresearch.optimizer.commands.common import experiment as find_experiment
    from autoresearch.plumbing.errors import InvalidInput
    from autoresearch.trajectory import server

    if not 0 <= port <= 65535:
        raise InvalidInput(f"--port {port}: a port is a number from 0 to 65535 (0 picks a free one)")
    _, _, paths = find_experiment(experiment, config)
    if experiment and not paths.meta.exists():
        raise InvalidInput(f"experiment '{experiment}' has no results in {paths.root}")
    if host not in server.LOOPBACK:
        print(f"warning: serving on {host}: anyone who can reach this machine can read your results", file=sys.stderr)
    try:
        httpd = server.make_server(paths.results_dir, host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise InvalidInput(f"port {port} is in use: pass --port with another number (0 picks a free one)") from None
        raise InvalidInput(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound_host, bound_port = str(httpd.server_address[0]), httpd.server_address[1]  # (an IP socket's: str, int)
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    url = f"http://{shown}:{bound_port}" + (server.chart_url(paths.root.name) if experiment else "/")
    print(f"serving {paths.results_dir} at {url}  (Ctrl-C to stop)", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        httpd.server_close()
    return 0
