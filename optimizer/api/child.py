"""The real CLI as a child process of the API: `start` and `eval` run there, so the API process holds no lock,
runs no eval itself and survives whatever they do.

The child starts as the daemon does (`daemon/launch.py`): under `-P`, by path, so that a user's repository
with an `autoresearch/` or `optimizer/` folder of its own cannot stand in for our modules. Its answer comes
from its machine-readable channel (`eval --json`), its refusal from the one line the CLI's boundary writes
to stderr.
"""

from __future__ import annotations

import subprocess

from fastapi import HTTPException
from pydantic import ValidationError

from autoresearch.optimizer.api.served import Served
from autoresearch.optimizer.daemon import launch
from autoresearch.optimizer.evalreport import EvalReport

CLI_TIMEOUT_S = 3600.0  # the eval's own timeout bounds it first; this only keeps a request from hanging forever


def cli(here: Served, *args: str) -> subprocess.CompletedProcess[str]:
    """`autoresearch ARGS -c CONFIG` in the repository, refused with 409 and the CLI's own message if it fails."""
    done = subprocess.run(
        launch.argv(*args, "-c", str(here.config)),
        cwd=here.repo_root,
        env=launch.env(),
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode:
        raise HTTPException(409, refusal(done))
    return done


def evaluate(here: Served) -> EvalReport:
    """The configured eval run once on the working tree, as `autoresearch eval --json` reports it."""
    done = cli(here, "eval", "--json")
    try:
        return EvalReport.model_validate_json(done.stdout)
    except ValidationError:  # an eval that answered no report: say so, not a bare 500
        raise HTTPException(500, f"`autoresearch eval --json` answered no report: {refusal(done)}") from None


def refusal(done: subprocess.CompletedProcess[str]) -> str:
    """The CLI's one-line error (`autoresearch: ...` on stderr), or its exit code when it wrote none."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return lines[-1].removeprefix("autoresearch: ") if lines else f"exit {done.returncode}"
