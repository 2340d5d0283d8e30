"""A lifecycle hook's command, run as AgentV's executeWorkspaceScript runs it.

The argv (its `{{workspace_path}}`, `{{test_id}}`, `{{eval_run_id}}`,
`{{case_input}}`, `{{case_metadata}}` filled in; no shell) gets the context
as JSON on stdin and runs in the hook's `cwd`, else the workspace file's
directory, else the eval file's. It is bounded by `timeout_ms` (default
60 s for a hook whose failure fails the test, 30 s for one that only
warns) and killed with its whole process group when that runs out, so a
hook that never ends cannot hold the run.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoresearch.plumbing import process
from autoresearch.runs.errors import StepFailed
from autoresearch.runs.evalfile.workspace import Hook

VARIABLE = re.compile(r"\{\{(\w+)\}\}")
FATAL_TIMEOUT_MS, WARN_TIMEOUT_MS = 60_000, 30_000


class HookFailed(StepFailed):
    """A workspace hook exited non-zero or timed out; the message is AgentV's."""


@dataclass(frozen=True)
class HookContext:
    workspace: Path
    test_id: str
    run_id: str
    eval_dir: Path
    file_dir: Path | None = None
    case_input: str | None = None
    case_metadata: dict[str, Any] | None = None

    def stdin(self) -> str:
        return json.dumps(
            {
                "workspace_path": str(self.workspace),
                "test_id": self.test_id,
                "eval_run_id": self.run_id,
                "case_input": self.case_input,
                "case_metadata": self.case_metadata,
            }
        )

    def variables(self) -> dict[str, str]:
        return {
            "workspace_path": str(self.workspace),
            "test_id": self.test_id,
            "eval_run_id": self.run_id,
            "case_input": self.case_input or "",
            "case_metadata": json.dumps(self.case_metadata, separators=(",", ":")) if self.case_metadata else "",
        }


def run_hook(hook: Hook, ctx: HookContext, fatal: bool = True) -> str:
    """The hook's stdout; raises HookFailed (AgentV's message) when it exits non-zero or times out."""
    values = ctx.variables()
    argv = [VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), arg) for arg in hook.command]
    timeout_ms = hook.timeout_ms if hook.timeout_ms is not None else (FATAL_TIMEOUT_MS if fatal else WARN_TIMEOUT_MS)
    cwd = hook.cwd or ctx.file_dir or ctx.eval_dir
    try:  # input and output in memory: no folder for a kill -9 to leave in the temporary directory
        done = process.run(
            f"exec {shlex.join(argv)}",
            cwd=cwd,
            log_prefix=None,
            timeout_s=timeout_ms / 1000,
            stdin=ctx.stdin().encode("utf-8"),
        )
    except OSError as exc:
        raise HookFailed(f"Script failed: {exc}") from None
    if done.timed_out:
        raise HookFailed(f"Process timed out after {timeout_ms:g}ms")
    if done.returncode != 0:
        raise HookFailed(f"Script failed: {done.stderr.strip() or f'Process exited with code {done.returncode}'}")
    return done.stdout
