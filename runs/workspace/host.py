"""AgentV 5's host environment made ready, as its environment/host.ts does it, before the first test.

The workdir is made when missing and used in place: it is the shared
workspace every test's target runs in. The setup command (an argv, no
shell) runs in `setup.cwd` (relative to the workdir), else in the eval
file's directory, with the recipe's `env` and `AGENTV_ENVIRONMENT_WORKDIR`
over ours and `{"environment": {"type": "host", "workdir": ...}}` on stdin;
a non-zero exit, or no end within its `timeout_ms`, fails every test with
AgentV's message.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from autoresearch.plumbing import process
from autoresearch.runs.evalfile.environment import HostEnvironment
from autoresearch.runs.workspace.hooks import HookFailed


def prepare(host: HostEnvironment, scratch: Path) -> Path:
    """The workdir, made and set up; raises HookFailed (AgentV's message) when the setup fails."""
    host.workdir.mkdir(parents=True, exist_ok=True)
    setup = host.setup
    if setup is None:
        return host.workdir
    stdin = scratch / "environment-setup.json"
    stdin.write_text(json.dumps({"environment": {"type": "host", "workdir": str(host.workdir)}}, indent=2))
    env = {**os.environ, **host.env, "AGENTV_ENVIRONMENT_WORKDIR": str(host.workdir)}
    shown = " ".join(setup.command)
    try:
        done = process.run(
            f"exec {shlex.join(setup.command)} < {shlex.quote(str(stdin))}",
            cwd=host.setup_cwd(),
            log_prefix=scratch / "environment-setup",
            timeout_s=setup.timeout_ms / 1000,
            env=env,
        )
    except OSError as exc:
        raise HookFailed(f"environment.setup failed with exit code 1 ({shown}): {exc}") from None
    if done.timed_out:
        raise HookFailed(
            f"environment.setup failed with exit code 1 ({shown}): Process timed out after {setup.timeout_ms:g}ms"
        )
    if done.returncode != 0:
        details = done.stderr.strip() or done.stdout.strip()
        raise HookFailed(
            f"environment.setup failed with exit code {done.returncode} ({shown})" + (f": {details}" if details else "")
        )
    return host.workdir
