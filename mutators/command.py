"""A mutator that runs a command (a coding agent such as `claude -p`, or any script)."""

from __future__ import annotations

import shlex
from pathlib import Path

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
        prompt_file.write_text(render(request), encoding="utf-8")
        env = request.env(prompt_file)
        command = self.config.command
        for name, value in env.items():
            command = command.replace("{" + name.lower() + "}", shlex.quote(value))
        done = process.run(
            command,
            cwd=request.repo_root,
            log_prefix=request.log_dir / "mutator",
            timeout_s=self.config.timeout_s,
            env=env,
        )
        if done.timed_out:
            raise MutationFailed(f"mutator timed out after {self.config.timeout_s:g}s", reason="mutator-timeout")
        if done.returncode != 0:
            raise MutationFailed(f"mutator exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
        return MutationResult(summary_from(request.changelog, done.stdout))
