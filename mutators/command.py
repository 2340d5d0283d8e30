"""A mutator that runs a command (a coding agent such as `claude -p`, or any script)."""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import replace
from pathlib import Path

from autoresearch.mutators import codex_spend
from autoresearch.mutators.base import MutationRequest, MutationResult, summary_from
from autoresearch.mutators.config import CommandMutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutatorConfigError
from autoresearch.mutators.instructions import render
from autoresearch.plumbing import process
from autoresearch.plumbing.program import missing_program


class CommandMutator:
    def __init__(self, config: CommandMutatorConfig, repo_root: Path):
        self.config, self.repo_root = config, repo_root

    def check(self) -> None:
        problem = missing_program(self.config.command, self.repo_root)
        if problem:
            raise MutatorConfigError(f"autoresearch.yaml: field 'mutator.command': {problem}")

    def mutate(self, request: MutationRequest) -> MutationResult:
        prompt_file = request.log_dir / "mutator-prompt.md"
        prompt_file.parent.mkdir(parents=True, exist_ok=True)
        seen = _as_seen(request)
        prompt_file.write_text(render(seen), encoding="utf-8")
        env = seen.env(prompt_file)
        command = self.config.command
        for name, value in env.items():
            command = command.replace("{" + name.lower() + "}", shlex.quote(value))
        try:
            done = process.run(
                _in_sandbox(command, request, prompt_file),
                cwd=request.repo_root,
                log_prefix=request.log_dir / "mutator",
                timeout_s=self.config.timeout_s,
                env=env,
            )
        finally:
            _collect_changelog(request)
        if done.timed_out:
            raise MutationFailed(f"mutator timed out after {self.config.timeout_s:g}s", reason="mutator-timeout")
        if done.returncode != 0:
            raise MutationFailed(f"mutator exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
        return self._result(request, done.stdout)

    def _result(self, request: MutationRequest, stdout: str) -> MutationResult:
        """The summary, and the spend where the command reported one (Codex's `--json` events)."""
        model = codex_spend.model_of(self.config.command, os.environ)
        spend = codex_spend.read(stdout, model, self.config.price_table())
        if spend is None:
            return MutationResult(summary_from(request.changelog, stdout))
        summary = summary_from(request.changelog, spend.reply or "")
        return MutationResult(summary, spend.cost_usd, spend.tokens_in, spend.tokens_out)


def _as_seen(request: MutationRequest) -> MutationRequest:
    """The request as the command sees it: in a sandbox, its checkout is out of the user's tree (see
    autoresearch.plumbing.sandbox), and so are the artifact and whatever else lies in it."""
    if request.sandbox is None:
        return request
    sandbox = request.sandbox.opening(work=request.repo_root)
    return replace(request, repo_root=sandbox.seen(request.repo_root), artifact=sandbox.seen(request.artifact))


def _in_sandbox(command: str, request: MutationRequest, prompt_file: Path) -> str | list[str]:
    """The command, in the request's sandbox if it has one: its checkout and outbox writable, the run just
    decided, the history and its instructions readable, what the mutator must not read hidden."""
    if request.sandbox is None:
        return command
    request.outbox.mkdir(parents=True, exist_ok=True)
    sandbox = request.sandbox.opening(
        readable=(request.run_dir, request.iterations, prompt_file),
        writable=(request.outbox,),
        work=request.repo_root,
    )
    sandbox = replace(sandbox, hidden=(*sandbox.hidden, *request.hidden))
    return sandbox.argv(["/bin/sh", "-c", command], sandbox.seen(request.repo_root))


def _collect_changelog(request: MutationRequest) -> None:
    """A sandboxed mutator's changelog, moved from its outbox to where the loop reads it."""
    if request.sandbox is None:
        return
    written = request.changelog_written
    if written.is_file() and not written.is_symlink():
        written.replace(request.changelog)
    shutil.rmtree(request.outbox, ignore_errors=True)
