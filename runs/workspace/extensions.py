"""AgentV 5's extension hooks run, as its extensions/runner.ts runs them, in the suite's shared workspace.

A file extension's module is imported by Node and its function named after
the hook called with the context (`hook_name`, `workspace_path`, `test_id`,
`eval_run_id`, `eval_dir`, and a test's `case_input` / `case_metadata`);
what it returns (provider context, metadata, output) changes no score here,
so it is not kept. `agentv:agent-rules` copies the paths it names (relative
to the eval file) into `.agentv/agent-rules/<kind>/` of the workspace,
unless they are inside it already; with none named it only discovers, which
changes nothing on disk. A failure raises HookFailed with AgentV's message.
"""

from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoresearch.plumbing import owned, process
from autoresearch.runs.evalfile.extensions import Extension
from autoresearch.runs.workspace.hooks import HookFailed

TIMEOUT_S = 600.0
"""AgentV 5 waits for an extension as long as it takes; here ten minutes bound it."""
RUNNER = """
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [file, name] = process.argv.slice(-2);
const context = JSON.parse(readFileSync(0, 'utf8'));
const imported = await import(pathToFileURL(file).href);
const fallback = imported.default && typeof imported.default === 'object' ? imported.default[name] : undefined;
const hook = imported[name] ?? fallback;
if (typeof hook !== 'function') {
  console.error(`Extension file://${file}:${name} does not export function ${name}`);
  process.exit(1);
}
await hook(context, { hookName: name });
"""


@dataclass(frozen=True)
class HookCall:
    """Where and for what an extension hook runs."""

    workspace: Path
    test_id: str
    run_id: str
    eval_dir: Path
    case_input: str | None = None
    case_metadata: dict[str, Any] | None = None

    def context(self, hook: str) -> dict[str, Any]:
        found: dict[str, Any] = {
            "hook_name": hook,
            "workspace_path": str(self.workspace),
            "test_id": self.test_id,
            "eval_run_id": self.run_id,
            "eval_dir": str(self.eval_dir),
        }
        if self.case_input is not None:
            found["case_input"] = self.case_input
        if self.case_metadata:
            found["case_metadata"] = self.case_metadata
        return found


def run(extensions: tuple[Extension, ...], hook: str, call: HookCall) -> bool:
    """Every extension of `hook`, in order; True when there was one. Raises HookFailed on the first failure."""
    chosen = [e for e in extensions if e.hook == hook]
    for extension in chosen:
        if extension.module is not None:
            _module(extension.module, hook, call)
        else:
            _agent_rules(extension, call)
    return bool(chosen)


def _module(module: Path, hook: str, call: HookCall) -> None:
    node = shutil.which("node")
    if node is None:
        raise HookFailed(f"extension file://{module}:{hook} needs Node.js (`node` on PATH)")
    with owned.temporary("autoresearch-extension-") as scratch:
        stdin = Path(scratch) / "context.json"
        stdin.write_text(json.dumps(call.context(hook)), encoding="utf-8")
        argv = [node, "--input-type=module", "-e", RUNNER, str(module), hook]
        try:
            done = process.run(
                f"exec {shlex.join(argv)} < {shlex.quote(str(stdin))}",
                cwd=call.eval_dir,
                log_prefix=Path(scratch) / "extension",
                timeout_s=TIMEOUT_S,
            )
        except OSError as exc:
            raise HookFailed(str(exc)) from None
    if done.timed_out:
        raise HookFailed(f"extension file://{module}:{hook} timed out after {TIMEOUT_S:g}s")
    if done.returncode != 0:
        raise HookFailed(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}")


def _agent_rules(extension: Extension, call: HookCall) -> None:
    for kind, entries in extension.rules.items():
        if not entries:
            continue
        stage = call.workspace / ".agentv" / "agent-rules" / kind
        stage.mkdir(parents=True, exist_ok=True)
        for entry in entries:
            source = (call.eval_dir / entry).resolve()
            if not source.exists():
                raise HookFailed(f"agentv:agent-rules {kind} path not found: {entry}")
            if source.is_relative_to(call.workspace.resolve()):
                continue
            destination = stage / source.name
            if source.is_dir():
                shutil.copytree(source, destination, dirs_exist_ok=True, symlinks=True)
            else:
                shutil.copy2(source, destination)
